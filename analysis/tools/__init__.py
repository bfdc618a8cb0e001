"""Side tools: two runs compared, designs compared, rounds per process, the committed sample, the screenshot."""
