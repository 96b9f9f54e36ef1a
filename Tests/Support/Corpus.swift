import Foundation

/// The inputs kept in the repository that many tests walk.
package enum Corpus {
    /// Every input the fuzzer ever broke an invariant with.
    package static let crashes = files(in: "Tests/Fixtures/Crashes")
    /// The hand-written hostile seeds of the fuzzers.
    package static let hostile = files(in: "Fuzz/corpus/hostile")
    /// The fuzzers' corpus, minimised (`-merge=1`; see Fuzz/README.md): every input that reached
    /// new code in millions of runs.
    package static let kept = files(in: "Fuzz/corpus/kept")

    /// The files of a folder of the repository, sorted by name.
    package static func files(in relative: String) -> [URL] {
        let dir = GenSupport.packageRoot.appendingPathComponent(relative)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
    }
}
