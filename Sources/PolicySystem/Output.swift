#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// stdout for machine output, stderr for people: unbuffered writes of whole strings.
package enum Output {
    package static func out(_ text: String) { emit(text, to: 1) }
    package static func err(_ text: String) { emit(text, to: 2) }
    /// Bytes made as UTF-8 (`Reporters.textBytes`), written as they are.
    package static func emit(_ bytes: [UInt8], to fd: Int32) { bytes.withUnsafeBufferPointer { emit($0, to: fd) } }

    package static func emit(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { emit($0, to: fd) }
    }

    package static func emit(_ buffer: UnsafeBufferPointer<UInt8>, to fd: Int32) {
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nobody is reading, nothing to do
            }
            offset += n
        }
    }

    /// Colour only for a terminal, and never when NO_COLOR is set (no-color.org).
    package static func useColor(fd: Int32) -> Bool {
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(fd) == 1
    }

    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
