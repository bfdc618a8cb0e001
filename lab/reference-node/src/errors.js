// An error the user can act on: what went wrong, and what to do. main.js prints both on stderr in the form the
// harness reads from every lab (`error: ...` then `hint: ...`).

export class LabError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}
