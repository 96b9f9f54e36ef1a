/* A cache prefetch for the simulation's event heap (Sources/PolicySimulation): Swift has no spelling of
 * one, and clang's _mm_prefetch is a macro that Swift cannot import. Header only, nothing to link. */
#ifndef POLICYC_PREFETCH_H
#define POLICYC_PREFETCH_H

/* Asks for the cache line of `p` to be loaded for writing, without waiting for it. */
static inline void policyc_prefetch(const void *p) {
    __builtin_prefetch(p, 1, 3);
}

#endif
