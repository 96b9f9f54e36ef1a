// libFuzzer entry points. libFuzzer supplies `main`; flags starting with `--` are left to us.
#if canImport(Glibc)
import Glibc
#endif
import PolicyKit

/// One input: the whole pipeline, then a trap (with the reasons on stderr) if an invariant broke.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let problems = HostilePipeline.violations(bytes, thorough: false)
    if !problems.isEmpty {
        var report = "policyc invariant broken on this input:\n"
        for p in problems.prefix(20) { report += "  - " + String(p.prefix(600)) + "\n" }
        printError(report)
        abort()
    }
    return 0
}

/// `--dump-seeds=DIR`: write every rule example's source (the catalog's passing and failing
/// examples) into DIR as seed files, and exit. Other flags are libFuzzer's.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                           _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    guard let argc, let argv = argv?.pointee else { return 0 }
    for i in 0..<Int(argc.pointee) {
        guard let raw = argv[i] else { continue }
        let arg = String(cString: raw)
        guard arg.hasPrefix("--dump-seeds=") else { continue }
        let dir = String(arg.dropFirst("--dump-seeds=".count))
        mkdir(dir, 0o755)
        var written = 0
        for rule in Catalog.rules {
            for (n, example) in rule.examples.enumerated() {
                let name = "\(dir)/\(rule.id.rawValue)-\(n + 1)-\(example.triggers ? "fails" : "passes").yaml"
                if write(Array(example.source.utf8), to: name) { written += 1 }
            }
        }
        if write(Array(Canonical.text.utf8), to: "\(dir)/canonical.yaml") { written += 1 }
        print("wrote \(written) seeds to \(dir)")
        exit(0)
    }
    return 0
}

func write(_ bytes: [UInt8], to path: String) -> Bool {
    guard let f = fopen(path, "wb") else {
        printError("cannot write \(path)\n")
        return false
    }
    defer { fclose(f) }
    return bytes.isEmpty || fwrite(bytes, 1, bytes.count, f) == bytes.count
}

/// To file descriptor 2 directly (the C `stderr` global is shared mutable state to Swift 6).
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = Glibc.write(2, &bytes, bytes.count)
}

/// SwiftPM links an executable with `main` renamed to `<module>_main` (so tests can link it), which
/// hides libFuzzer's own `main`; this one hands over to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("FuzzPolicy_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return runFuzzerDriver(&count, &vector) { data, size in fuzzOne(data, size) }
}
