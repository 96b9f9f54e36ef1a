import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// `file:` URIs and paths, as editors write them (RFC 8089; percent-encoded UTF-8).
public enum FileURI {
    /// The path of a `file:` URI (`file:///a/b%20c.yaml` → `/a/b c.yaml`), nil for another scheme,
    /// a relative or malformed one, or one whose path would hold a NUL byte.
    public static func path(_ uri: String) -> String? {
        var rest = Substring(uri)
        guard rest.count >= 5, rest.prefix(5).lowercased() == "file:" else { return nil }
        rest = rest.dropFirst(5)
        if rest.hasPrefix("//") {
            // An authority: empty or localhost (another host's file is not ours to read).
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<slash].lowercased()
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/") else { return nil }
        // Up to a query or fragment.
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rest.utf8.count)
        let u = Array(rest.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "%"), i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
                bytes.append(h << 4 | l)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `file:` URI of an absolute path, each byte outside the unreserved set and `/`
    /// percent-encoded (as VS Code writes them).
    public static func uri(_ path: String) -> String {
        var out = "file://"
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(b >> 4)])
                out.unicodeScalars.append(digits[Int(b & 15)])
            }
        }
        return out
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - 0x41 + 10
        default: return nil
        }
    }
}
