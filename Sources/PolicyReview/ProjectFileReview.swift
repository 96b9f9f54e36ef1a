import PolicySource
import PolicyCheck

/// One side's project file as review reads it: what its policies were judged with.
public struct ReviewProject: Sendable {
    /// The file's path, nil when the side has none (every default).
    public var file: String?
    public var config: ProjectConfig
    /// The number of findings its baseline holds (nil: no baseline).
    public var baselineEntries: Int?

    public init(file: String?, config: ProjectConfig = ProjectConfig(), baselineEntries: Int? = nil) {
        self.file = file
        self.config = config
        self.baselineEntries = baselineEntries
    }

    var limits: Limits { config.effectiveLimits(file: file ?? "") }
    var edition: String { config.guide?.value ?? Guide.newest.name }
}

/// A change of the project file between base and head: what judges the policies changed with it.
public struct ProjectFileChange: Sendable, Hashable {
    /// `limits.interactiveMaxRetries`, `review.peakLoad`, `guide`, `baseline`, `targets`, ….
    public var key: String
    public var before: String
    public var after: String
    /// The head judges less strictly here: a limit raised or gone, a threshold raised, more days
    /// for a waiver, more findings accepted by the baseline.
    public var loosened: Bool
    /// The head judges more strictly here.
    public var tightened: Bool

    /// "limits.backgroundMaxRetries 6 → none (loosened)".
    public var line: String {
        let how = loosened ? " (loosened)" : tightened ? " (tightened)" : ""
        return "\(key) \(before) → \(after)\(how)"
    }

    public var json: JSON {
        .object(["key": .string(key), "before": .string(before), "after": .string(after),
                 "change": .string(loosened ? "loosened" : tightened ? "tightened" : "changed")])
    }
}

/// Base and head project files compared: limits (the effective ones, so that an edition's change
/// counts), the review's thresholds, the edition, waiverMaxDays, the baseline and the targets.
public enum ProjectFileReview {
    public static func compare(base: ReviewProject, head: ReviewProject) -> [ProjectFileChange] {
        var out: [ProjectFileChange] = []
        func add(_ key: String, _ b: String, _ h: String, loosened: Bool = false, tightened: Bool = false) {
            guard b != h else { return }
            out.append(ProjectFileChange(key: key, before: b, after: h, loosened: loosened, tightened: tightened))
        }
        add("guide", base.edition, head.edition)
        let (bl, hl) = (base.limits, head.limits)
        for key in LimitKey.allCases {
            let b = bl.values[key], h = hl.values[key]
            guard b != h else { continue }
            var looser = false, tighter = false
            switch (b, h) {
            case (.some, nil): looser = true
            case (nil, .some): tighter = true
            case (let x?, let y?):
                let c = y.compare(x)
                looser = key.isMinimum ? c < 0 : c > 0
                tighter = key.isMinimum ? c > 0 : c < 0
            default: break
            }
            add("limits.\(key.rawValue)", b?.description ?? "none", h?.description ?? "none", loosened: looser, tightened: tighter)
        }
        let (bt, ht) = (base.config.review, head.config.review)
        func threshold(_ name: String, _ b: Double, _ h: Double, _ unit: String) {
            add("review.\(name)", Wording.number(b) + unit, Wording.number(h) + unit, loosened: h > b, tightened: h < b)
        }
        threshold("peakLoad", bt.peakLoadPercent, ht.peakLoadPercent, "%")
        threshold("sawRetry", bt.sawRetryPoints, ht.sawRetryPoints, " points")
        threshold("p95", bt.p95Percent, ht.p95Percent, "%")
        add("review.recovery", Wording.duration(bt.recoveryMs), Wording.duration(ht.recoveryMs),
            loosened: ht.recoveryMs > bt.recoveryMs, tightened: ht.recoveryMs < bt.recoveryMs)
        let bd = base.config.waiverMaxDays?.value ?? CheckOptions.defaultWaiverMaxDays
        let hd = head.config.waiverMaxDays?.value ?? CheckOptions.defaultWaiverMaxDays
        add("waiverMaxDays", String(bd), String(hd), loosened: hd > bd, tightened: hd < bd)
        let bb = base.baselineEntries ?? 0, hb = head.baselineEntries ?? 0
        add("baseline", baselineWords(base), baselineWords(head), loosened: hb > bb, tightened: hb < bb)
        func targets(_ p: ReviewProject) -> String {
            (p.config.targets?.value ?? CodeTarget.defaults).map(\.rawValue).joined(separator: ", ")
        }
        add("targets", targets(base), targets(head))
        return out
    }

    /// "policyc-baseline.json (3 findings)", "none".
    static func baselineWords(_ p: ReviewProject) -> String {
        guard let file = p.config.baseline?.value else { return "none" }
        return "\(printable(file)) (\(Wording.count(p.baselineEntries ?? 0, "finding")))"
    }
}

/// The revision a `diff --base` compared with: the merge base of REF and HEAD, or REF itself.
public struct ReviewBase: Sendable, Hashable {
    /// The revision as given (`main`, `origin/main`, a SHA).
    public var ref: String
    /// The full commit id compared with.
    public var commit: String
    /// The full commit id of HEAD.
    public var head: String
    /// `--base-exact`: `commit` is REF itself, not the merge base.
    public var exact: Bool

    public init(ref: String, commit: String, head: String, exact: Bool) {
        self.ref = ref
        self.commit = commit
        self.head = head
        self.exact = exact
    }

    /// "base 1a2b3c4 (merge base of main and HEAD 9f8e7d6)", "base 1a2b3c4 (main, exactly)".
    public var line: String {
        let short = String(commit.prefix(7))
        if exact { return "base \(short) (\(printable(ref)), exactly)" }
        return "base \(short) (merge base of \(printable(ref)) and HEAD \(head.prefix(7)))"
    }

    public var json: JSON {
        .object(["ref": .string(ref), "commit": .string(commit), "head": .string(head), "exact": .bool(exact)])
    }
}
