// Messages the pages compare with what a call answered (no server imports: client components read it too).

/** Generating a key before the address is verified (contract: "Accounts for real"). */
export const VERIFY_FIRST = "Verify your email address first";

/**
 * What log-in (server/accounts/auth.ts's authorize) answers when the password was right and the
 * account asks for its authentication code: the log-in form then shows that field.
 */
export const AUTHENTICATION_CODE_REQUIRED = "Authentication code required";
