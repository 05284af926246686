/** A problem with one import file: printed as one line, the other files still import. */
export class ImportError extends Error {}
