#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread of its own; `join` waits for it to end.
struct Worker: ~Copyable {
    private var thread: pthread_t

    /// nil when no thread could be made (the caller then does the work itself).
    init?(_ body: @escaping @Sendable () -> Void) {
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

    consuming func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own: no one will wait for it.
    consuming func detach() {
        pthread_detach(thread)
    }

    /// `(0..<count).map(transform)`, its second half made on a thread of its own when `apart`
    /// and `count` is at least `minimum`. Each half is written in place: joining two arrays
    /// would copy the second, retaining every text in it once more.
    static func map<T>(_ count: Int, apart: Bool, minimum: Int = 4096,
                       _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        guard apart, count >= max(minimum, 2) else { return (0..<count).map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let half = count / 2
            let place = Place(buffer.baseAddress!)
            let worker = Worker {
                for i in half..<count { (place.base + i).initialize(to: transform(i)) }
            }
            for i in 0..<half { (place.base + i).initialize(to: transform(i)) }
            if let worker {
                worker.join()
            } else {
                for i in half..<count { (place.base + i).initialize(to: transform(i)) }
            }
            initialized = count
        }
    }

    /// The start of a buffer whose halves two threads fill, each its own (see `map`).
    struct Place<T>: @unchecked Sendable {
        let base: UnsafeMutablePointer<T>
        init(_ base: UnsafeMutablePointer<T>) { self.base = base }
    }

    /// Lets `value` go on a thread of its own when `apart`, else here. For a large tree, when a
    /// core is idle: tearing one down releases each entry's text and value in turn.
    static func release<Value: Sendable>(_ value: consuming Value, apart: Bool) {
        guard apart, let worker = Worker({ [value] in withExtendedLifetime(value) {} }) else { return }
        worker.detach()
    }
}

/// A value a worker leaves for the thread that joins it: written before the worker ends, read
/// after `join` (which orders the two), never by both at once.
final class Handover<Value: Sendable>: @unchecked Sendable {
    var value: Value?
}
