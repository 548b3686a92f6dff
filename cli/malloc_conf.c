/* malloc_conf: the options jemalloc reads at its start (MALLOC_CONF in the
 * environment still adds to them and wins).
 *
 * narenas:1. jemalloc gives each new thread one of 4 arenas a core and,
 * when a thread leaves an arena with no thread, purges all of that arena's
 * dirty pages there and then (tcache_destroy). A build or a compare starts
 * threads per run (the model's read-ahead, the bootstrap, the ingest's
 * workers): each one's exit became dozens of madvise(MADV_DONTNEED) calls,
 * each a TLB shootdown that interrupts the other vCPU (2,462 calls in a
 * cold build of 100 runs, 819 with one arena; docs/performance.md, "One
 * arena (session 52)"). With one arena the main thread always holds it, so
 * no exit purges; the threads' caches (tcache) still serve their small
 * allocations without its lock. Linked only with jemalloc. */
__attribute__((used, visibility("default"))) const char *malloc_conf = "narenas:1";
