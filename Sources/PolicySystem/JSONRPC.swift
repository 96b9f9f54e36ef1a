#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyEditor

extension MessageReader {
    /// Reads the file descriptor `fd`.
    init(fd: Int32) {
        self.init { buffer in
            while true {
                let n = systemRead(fd, buffer.baseAddress!, buffer.count)
                if n < 0 && errno == EINTR { continue }
                return max(n, 0)
            }
        }
    }

    /// Whether input arrives on `fd` within `milliseconds` (or is there already).
    package func waitForInput(fd: Int32 = 0, milliseconds: Int32) -> Bool {
        if hasBuffered || ended { return true }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&pfd, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n != 0
        }
    }
}

/// Writes messages with their `Content-Length` header, each in one piece. Nothing else of
/// `policyc lsp` writes to standard output.
package struct MessageWriter {
    package let fd: Int32
    /// The other side stopped reading.
    private(set) var broken = false

    init(fd: Int32) {
        self.fd = fd
    }

    package mutating func send(_ message: JSON) {
        let body = message.rendered(pretty: false)
        var frame = "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        frame.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count && !broken {
                let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    broken = true
                    return
                }
                offset += n
            }
        }
    }
}
