/** An HTTP error the gateway answers with as JSON `{ error: { status, message } }`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
