#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource
import PolicyTraffic

/// `verify`'s recordings as they come off the disk: plain or gzip-compressed, within a size.
package enum Recordings {
    /// The recording's bytes, gunzipped when they are gzip; over `maxSize`, `input-limit`.
    package static func read(_ path: String, maxSize: Int) -> Result<[UInt8], HARError> {
        func failure(_ message: String) -> Result<[UInt8], HARError> {
            .failure(HARError(message: message, offset: 0, line: 1, column: 1))
        }
        func tooLarge(_ size: Int, _ what: String) -> Result<[UInt8], HARError> {
            .failure(HARError(message: "the recording is \(what)\(Wording.thousands(size)) bytes, over the limit of \(Wording.thousands(maxSize)); give --max-size to read it",
                              offset: 0, line: 1, column: 1, rule: "input-limit"))
        }
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > maxSize { return tooLarge(Int(info.st_size), "") }
        let bytes: [UInt8]
        switch Files.read(path, limit: maxSize) {
        case .failure(let error): return failure(error.message)
        case .success(let read): bytes = read
        }
        if bytes.count > maxSize { return tooLarge(bytes.count, "over ") }
        guard bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B else { return .success(bytes) }
        switch Subprocess.run("gzip", ["-dc", "--", path], limit: maxSize + 1) {
        case .failure(let error): return failure("cannot decompress the gzip recording: \(error.message)")
        case .success(let plain):
            return plain.count > maxSize ? tooLarge(plain.count, "over ") : .success(plain)
        }
    }

    /// `2000000000`, `512M`, `2G` → bytes.
    package static func size(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let (digits, unit) = text.last.flatMap { units[Character($0.uppercased())] }.map { (text.dropLast(), $0) } ?? (Substring(text), 1)
        guard let n = Int(digits), n > 0, n <= Int.max / unit / 2 else { return nil }
        return n * unit
    }
}
