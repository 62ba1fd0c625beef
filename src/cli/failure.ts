/** A command that could not do its work: the CLI prints the message alone and exits 1. */
export class CliFailure extends Error {}
