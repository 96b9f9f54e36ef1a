import PolicySource
import PolicyCheck

extension Reporters {
    /// JUnit XML for CI systems that read it: one `<testsuite>` per file, one failing `<testcase>`
    /// per error, a passing `lint` testcase for a file without findings.
    ///
    /// A warning is a passing testcase whose `<system-out>` holds the finding, so it is visible
    /// without failing the build; under `--strict` warnings fail the check, and so their
    /// testcases fail too. An input that could not be read is a suite of its own whose `read`
    /// testcase has an `<error>` (JUnit's word for a test that could not run); a folder without
    /// policy files is one whose `policy files` testcase shows the warning.
    public static func junit(_ files: [CheckedFile], notices: [InputNotice] = [], strict: Bool = false) -> String {
        // Suites by path, files and notices together.
        var suites: [(path: String, text: String)] = []
        var totalTests = 0, totalFailures = 0, totalErrors = 0
        for file in sortedFiles(files) {
            let diagnostics = file.diagnostics.sortedForReport()
            var cases = ""
            var failures = 0
            for d in diagnostics {
                let fails = d.severity == .error || (strict && d.severity == .warning)
                let name = "\(d.rule) at \(d.line):\(d.column)"
                var detail = d.headline
                if let help = d.help { detail += "\nhelp: " + help }
                if let accepted = d.acceptance { detail += "\n" + accepted }
                if let reference = reference(of: d.rule) { detail += "\nguide: " + reference.text }
                cases += "    <testcase name=\"\(Wording.xml(name, attribute: true))\" classname=\"\(Wording.xml(file.path, attribute: true))\""
                    + " file=\"\(Wording.xml(d.file, attribute: true))\" line=\"\(d.line)\">\n"
                if fails {
                    failures += 1
                    cases += "      <failure message=\"\(Wording.xml(d.message, attribute: true))\" type=\"\(Wording.xml(d.rule.rawValue, attribute: true))\">"
                        + Wording.xml(detail, attribute: false) + "</failure>\n"
                } else {
                    cases += "      <system-out>" + Wording.xml(detail, attribute: false) + "</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            if diagnostics.isEmpty {
                cases += "    <testcase name=\"lint\" classname=\"\(Wording.xml(file.path, attribute: true))\" file=\"\(Wording.xml(file.path, attribute: true))\"/>\n"
            }
            let tests = max(1, diagnostics.count)
            totalTests += tests
            totalFailures += failures
            suites.append((file.path, suite(file.path, tests: tests, failures: failures, errors: 0, cases: cases)))
        }
        for notice in sortedNotices(notices) {
            let path = Wording.xml(notice.path, attribute: true)
            let message = Wording.xml(notice.message, attribute: true)
            var failures = 0, errors = 0
            var cases: String
            switch notice.kind {
            case .unreadable:
                errors = 1
                cases = "    <testcase name=\"read\" classname=\"\(path)\" file=\"\(path)\">\n"
                    + "      <error message=\"\(message)\" type=\"\(notice.kind.rawValue)\">\(Wording.xml(notice.message, attribute: false))</error>\n"
            case .empty, .brokenLink:
                cases = "    <testcase name=\"\(notice.kind == .empty ? "policy files" : "link")\" classname=\"\(path)\" file=\"\(path)\">\n"
                if strict {
                    failures = 1
                    cases += "      <failure message=\"\(message)\" type=\"\(notice.kind.rawValue)\">\(Wording.xml(notice.message, attribute: false))</failure>\n"
                } else {
                    cases += "      <system-out>\(Wording.xml(notice.message, attribute: false))</system-out>\n"
                }
            }
            cases += "    </testcase>\n"
            totalTests += 1
            totalFailures += failures
            totalErrors += errors
            suites.append((notice.path, suite(notice.path, tests: 1, failures: failures, errors: errors, cases: cases)))
        }
        // A stable sort: a file and a notice of one path keep files first.
        let ordered = suites.indices.sorted { a, b in
            suites[a].path != suites[b].path ? suites[a].path < suites[b].path : a < b
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"policyc lint\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\">\n"
            + ordered.map { suites[$0].text }.joined() + "</testsuites>\n"
    }

    static func suite(_ path: String, tests: Int, failures: Int, errors: Int, cases: String) -> String {
        "  <testsuite name=\"\(Wording.xml(path, attribute: true))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
            + cases + "  </testsuite>\n"
    }
}
