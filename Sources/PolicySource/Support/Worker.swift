import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread of its own; `join` waits for it to end.
package struct Worker: ~Copyable {
    private var thread: pthread_t

    /// nil when no thread could be made (the caller then does the work itself).
    package init?(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
        #if canImport(Darwin)
        self.thread = thread!
        #else
        self.thread = thread
        #endif
    }

    package consuming func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own: no one will wait for it.
    package consuming func detach() {
        pthread_detach(thread)
    }

    /// `(0..<count).map(transform)`, made on this thread and one of its own when `apart` and
    /// `count` is at least `minimum`, each taking `Pieces` as it is free. Each piece is written in
    /// place: joining two arrays would copy the second, retaining every text in it once more.
    package static func map<T>(_ count: Int, apart: Bool, minimum: Int = 4096,
                       _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        guard apart, count >= max(minimum, 2) else { return (0..<count).map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let place = Place(buffer.baseAddress!)
            let pieces = Pieces(count)
            @Sendable func make() {
                while let piece = pieces.take() {
                    for i in piece { (place.base + i).initialize(to: transform(i)) }
                }
            }
            let worker = Worker(make)
            make()
            worker?.join()
            initialized = count
        }
    }

    /// The start of a buffer whose parts two threads fill, each its own (see `map`).
    package struct Place<T>: @unchecked Sendable {
        package let base: UnsafeMutablePointer<T>
        package init(_ base: UnsafeMutablePointer<T>) { self.base = base }
    }

    /// Lets `value` go on a thread of its own when `apart`, else here. For a large tree, when a
    /// core is idle: tearing one down releases each entry's text and value in turn.
    package static func release<Value: Sendable>(_ value: consuming Value, apart: Bool) {
        guard apart, let worker = Worker({ [value] in withExtendedLifetime(value) {} }) else { return }
        worker.detach()
    }
}

/// `0..<count` in pieces of `size`, for threads that take them as they are free: each piece is
/// taken once, in order. Halves fixed in advance left one thread waiting for the other: decoding
/// 28,000 profiles, the thread of the second half ran 11 ms under perf against the first's 7, most
/// of the difference its page faults and its new arena's growth. Which thread takes a piece
/// depends on their speed; what is made of it must not.
package final class Pieces: Sendable {
    package let count: Int
    package let size: Int
    private let next = Atomic<Int>(0)
    private let last = Atomic<Int>(.max)

    package init(_ count: Int, size: Int = 512) {
        self.count = count
        self.size = max(1, size)
    }

    /// How many pieces there are: the last may be short.
    package var pieceCount: Int { (count + size - 1) / size }

    /// No piece after piece `p` is wanted from now on (the lowest so asked for holds): a thread
    /// working ahead of it gives up (`Decoder.decodeAhead`).
    package func stop(after p: Int) {
        last.min(p, ordering: .relaxed)
    }

    /// Whether a piece before `p` has asked for the pieces after it to stop.
    package func isStopped(_ p: Int) -> Bool {
        p > last.load(ordering: .relaxed)
    }

    /// The next piece not yet taken, or nil when all are.
    package func take() -> Range<Int>? {
        let start = next.wrappingAdd(size, ordering: .relaxed).oldValue
        guard start < count else { return nil }
        return start..<min(count, start + size)
    }
}

/// A value a worker leaves for the thread that joins it: written before the worker ends, read
/// after `join` (which orders the two), never by both at once.
package final class Handover<Value: Sendable>: @unchecked Sendable {
    package var value: Value?
    package init() {}
}
