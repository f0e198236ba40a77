// Messages the pages compare with what a call answered (no server imports: client components read it too).

/** Generating a key before the address is verified (contract: "Accounts for real"). */
export const VERIFY_FIRST = "Verify your email address first";
