"""Containers: the Docker engine, the isolation every lab container gets, the lab images (and the compose.yaml that
declares them), the NuGet seed and the locally built base images that make an offline image build possible."""
