/** Environment variables as the program reads them: process.env, or a test's own. */
export type Env = Readonly<Record<string, string | undefined>>;
