/** Bad input to the estimator (missing or unreadable GGUF, unknown architecture, bad option): one clear line, never a stack. */
export class FitError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FitError'
  }
}
