#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The one way policyc runs work in parallel (checking files, generating, writing folders,
/// simulating): `transform` of every index below `count`, the results in index order however the
/// work was scheduled. Indices go to threads `chunk` at a time: a task should be far more work
/// than handing it to a thread.
///
/// `threads`: how many threads at most; nil reads `POLICYC_THREADS` (see `configuredThreads`),
/// and without it every core takes part. With 1, or with no more than one chunk of work,
/// everything runs on the calling thread, in order.
public func parallelMap<R: Sendable>(_ count: Int, threads: Int? = nil, chunk: Int = 1,
                                     _ transform: @Sendable (Int) -> R) -> [R] {
    let chunk = max(1, chunk)
    let chunks = (count + chunk - 1) / chunk
    let threads = threads ?? configuredThreads
    if chunks <= 1 || threads == 1 { return (0..<count).map(transform) }
    // With a thread count, that many tasks, task t taking chunks t, t + tasks, …; without one, a
    // task a chunk, and Dispatch runs as many at once as there are cores.
    let tasks = threads.map { min($0, chunks) } ?? chunks
    var results = [R?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
        // Each index is written by exactly one task, and read only after all of them end.
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: tasks) { t in
            for c in stride(from: t, to: chunks, by: tasks) {
                for i in (c * chunk)..<min(count, (c + 1) * chunk) { slots[i] = transform(i) }
            }
        }
    }
    return results.map { $0! }
}

/// `POLICYC_THREADS`: a positive integer (1: one piece of work after the other); nil when it is
/// unset or anything else, and then every core takes part.
public var configuredThreads: Int? {
    guard let text = getenv("POLICYC_THREADS").map({ String(cString: $0) }), let n = Int(text), n > 0 else { return nil }
    return n
}
