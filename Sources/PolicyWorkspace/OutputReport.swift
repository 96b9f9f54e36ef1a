import PolicySource

/// What `generate` says about a plan: `--check`'s lines with short diffs, the lines of a run that
/// wrote, and the summaries.
extension OutputPlan {
    /// `would change Generated/Swift/X.swift` and a short diff.
    package static func describe(_ entry: Entry, folder: String, gone: String = "its policy is gone") -> String {
        let path = printable(folder) + "/" + entry.path
        switch entry.change {
        case .create:
            return "would create \(path)\n"
        case .remove:
            return "would remove \(path) (\(gone))\n"
        case .change(let old):
            guard let old else { return "would replace \(path) (not a regular file)\n" }
            return "would change \(path)\n" + ShortDiff.render(old: old, new: entry.contents, path: path)
        }
    }

    /// `Generated/ is up to date (12 files)`.
    package static func upToDate(_ plan: Plan, folder: String) -> String {
        "\(folder)/ is up to date (\(Wording.count(plan.unchanged, "file")))\n"
    }

    /// `3 generated files out of date; run '…' to update`.
    package static func outOfDate(_ plan: Plan, update: String) -> String {
        "\(Wording.count(plan.entries.count, "generated file")) out of date; run '\(update)' to update\n"
    }

    /// A line a file written or removed, then `wrote 2 files, removed 1, 10 up to date`.
    package static func written(_ plan: Plan, folder: String) -> String {
        var report = ""
        for entry in plan.entries {
            let verb: String
            switch entry.change {
            case .create: verb = "created"
            case .change: verb = "updated"
            case .remove: verb = "removed"
            }
            report += "\(verb) \(printable(folder))/\(entry.path)\n"
        }
        let removed = plan.entries.count { if case .remove = $0.change { return true } else { return false } }
        let written = plan.entries.count - removed
        return report + "wrote \(Wording.count(written, "file"))\(removed > 0 ? ", removed \(removed)" : "")"
            + "\(plan.unchanged > 0 ? ", \(plan.unchanged) up to date" : "")\n"
    }
}
