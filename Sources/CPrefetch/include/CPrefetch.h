#ifndef AASA_CPREFETCH_H
#define AASA_CPREFETCH_H

/// Starts bringing the cache line holding `address` towards the core,
/// without waiting for it (a hint: any address is safe, none faults).
///
/// Swift has no prefetch of its own, and a plain load is no substitute on
/// the serving path: every retain and release there is a locked
/// instruction, which waits for all earlier loads, so touching a cold line
/// early would only move the wait. A prefetch is not waited for.
static inline void aasa_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
