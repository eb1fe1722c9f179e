#ifndef AASA_CPREFETCH_H
#define AASA_CPREFETCH_H

/// Starts bringing the cache line holding `address` towards the core, to be
/// written, without waiting for it (a hint: any address is safe, none
/// faults). x86-64 without PRFCHW gets a plain prefetch; arm64 a prefetch
/// for store.
///
/// Swift has no prefetch of its own, and a plain load is no substitute on
/// the serving path: on x86-64 every retain and release there is a locked
/// instruction, which waits for all earlier loads, so touching a cold line
/// early would only move the wait. A prefetch is not waited for.
static inline void aasa_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
