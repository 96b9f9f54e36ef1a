// The second libFuzzer target: load + decode + check alone, the stage that meets untrusted bytes
// first, with the cheap invariants of its findings. Many times the executions a second of
// `FuzzPolicy`, which runs every reporter, `diff`, `explain` and the generators on each input.
#if canImport(Glibc)
import Glibc
#endif
import PolicyKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let problems = HostilePipeline.checkViolations(bytes)
    if !problems.isEmpty {
        var report = "policyc invariant broken on this input (load + decode + check):\n"
        for p in problems.prefix(20) { report += "  - " + String(p.prefix(600)) + "\n" }
        var out = Array(report.utf8)
        _ = Glibc.write(2, &out, out.count)
        abort()
    }
    return 0
}

/// See `FuzzPolicy/Entry.swift`: SwiftPM renames an executable's `main`, so hand over to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("FuzzCheck_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return runFuzzerDriver(&count, &vector) { data, size in fuzzOne(data, size) }
}
