/**
 * The closed set of problem codes (API.md section 1) and their HTTP statuses, in one place.
 * Code throws `AppError` with a code; one error handler renders RFC 9457 problem+json.
 */
export const PROBLEMS = {
  validation_error: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Authentication required' },
  payment_required: { status: 402, title: 'Payment required' },
  payment_failed: { status: 402, title: 'Payment failed' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  no_availability: { status: 409, title: 'No availability' },
  reservation_cancelled: { status: 409, title: 'Reservation cancelled' },
  quote_already_used: { status: 409, title: 'Quote already used' },
  not_modifiable: { status: 409, title: 'Not modifiable' },
  step_out_of_order: { status: 409, title: 'Step out of order' },
  step_not_applicable: { status: 409, title: 'Step not applicable' },
  session_completed: { status: 409, title: 'Session completed' },
  idempotency_in_progress: { status: 409, title: 'Idempotent request in progress' },
  invoicing_not_configured: { status: 409, title: 'Invoicing not configured' },
  nothing_to_invoice: { status: 409, title: 'Nothing to invoice' },
  already_invoiced: { status: 409, title: 'Already invoiced' },
  already_corrected: { status: 409, title: 'Already corrected' },
  amount_exceeds_balance: { status: 409, title: 'Amount exceeds balance' },
  no_card_on_file: { status: 409, title: 'No card on file' },
  quote_expired: { status: 410, title: 'Quote expired' },
  session_expired: { status: 410, title: 'Session expired' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  restriction_window: { status: 422, title: 'Restriction window' },
  promo_code_invalid: { status: 422, title: 'Promotion code not valid' },
  rate_limited: { status: 429, title: 'Too many requests' },
  sign_in_failed: { status: 401, title: 'Sign-in failed' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export const PROBLEM_TYPE_BASE = 'https://innkeep.dev/problems/';

export function problemType(code: ProblemCode): string {
  return PROBLEM_TYPE_BASE + code.replaceAll('_', '-');
}

/** One entry of a problem's `errors`: a JSON-pointer `path` for validation, a room type otherwise. */
export type ProblemDetailEntry = { path?: string; message: string; [key: string]: unknown };

/** What a problem may carry besides its code and detail, thrown (`AppError`) or sent (`sendProblem`). */
export interface ProblemExtras {
  errors?: ProblemDetailEntry[];
  headers?: Record<string, string>;
  /**
   * RFC 9457 extension members, e.g. `nextAction` on a payment needing 3-D Secure, `unknownRoute`
   * on the 404 of a path no route serves.
   */
  members?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly errors: ProblemDetailEntry[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** RFC 9457 extension members of the problem, e.g. `nextAction` on a payment needing 3-D Secure. */
  readonly members: Record<string, unknown> | undefined;

  constructor(code: ProblemCode, detail: string, extra: ProblemExtras = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = PROBLEMS[code].status;
    this.errors = extra.errors;
    this.headers = extra.headers;
    this.members = extra.members;
  }
}

/**
 * The one way a `validation_error` is built: every invalid field in `errors` (JSON-pointer paths)
 * and a detail that lists them as `path: message`, unless a sentence says it better.
 */
export function validationProblem(errors: ProblemDetailEntry[], detail?: string): AppError {
  return new AppError('validation_error', detail ?? errors.map((e) => `${e.path}: ${e.message}`).join('; '), {
    errors,
  });
}

/** A 400 for one or more invalid fields of the request body. */
export function invalid(path: string, message: string, more: ProblemDetailEntry[] = []): AppError {
  return validationProblem([{ path, message }, ...more]);
}
