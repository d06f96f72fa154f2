/** What `stop()` undoes, in the order things were started (the role start functions add theirs); it runs them in reverse. */
export type Cleanups = Array<() => Promise<void>>;
