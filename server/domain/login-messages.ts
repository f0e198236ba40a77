// What authorize (server/auth.ts) answers when the password was right and the account asks for
// its authentication code: the login form then shows that field. Apart so that the form can
// import it without the server's modules.
export const AUTHENTICATION_CODE_REQUIRED = "Authentication code required";
