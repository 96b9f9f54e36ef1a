import Dispatch
import PolicyKit

extension Simulate {
    /// Every job of a run, in parallel; results in the jobs' order whatever the threads.
    static func runAll(_ jobs: [(Policy, Scenario)], profile: String?, seed: UInt64?) -> [Result<SimulationRun, Simulator.Failure>] {
        parallelMap(jobs.count) { i in Simulator.run(policy: jobs[i].0, scenario: jobs[i].1, profile: profile, seed: seed) }
    }

    /// Every job with its own profile (nil: the scenario's), in parallel; results in the jobs' order.
    static func runAll(_ jobs: [(Policy, Scenario, String?)], seed: UInt64?) -> [Result<SimulationRun, Simulator.Failure>] {
        parallelMap(jobs.count) { i in Simulator.run(policy: jobs[i].0, scenario: jobs[i].1, profile: jobs[i].2, seed: seed) }
    }

    /// Base and head of each pair under each scenario, for every profile whose retry values differ
    /// (the one named with `--profile`; the scenario's own when none differs).
    static func compare(_ pairs: [(base: Policy?, head: Policy)], scenarios: [Scenario], ref: String, profile: String?,
                        seed: UInt64?) -> (comparisons: [SimulationComparison], failed: Bool) {
        var jobs: [(Policy, Scenario, String?)] = []
        var slots: [(base: Int?, head: Int)] = []
        for pair in pairs {
            let changed = SimulationComparison.changedProfiles(base: pair.base, head: pair.head)
            let profiles: [String?] = profile.map { [$0] } ?? (changed.isEmpty ? [nil] : changed.map { Optional($0) })
            for name in profiles {
                // A profile the base lacks is new: head alone.
                let base = pair.base.flatMap { b in name == nil || b.profiles.contains { $0.name == name } ? b : nil }
                for s in scenarios {
                    var b: Int?
                    if let base {
                        b = jobs.count
                        jobs.append((base, s, name))
                    }
                    slots.append((b, jobs.count))
                    jobs.append((pair.head, s, name))
                }
            }
        }
        let results = runAll(jobs, seed: seed)
        var failed = false
        var comparisons: [SimulationComparison] = []
        for slot in slots {
            var base: SimulationRun?
            if let b = slot.base {
                switch results[b] {
                case .success(let run): base = run
                case .failure(let f):
                    failed = true
                    Output.err("error: \(printable(jobs[b].0.file)) at \(printable(ref)), scenario \(printable(jobs[b].1.name)): \(f.message)\n")
                }
            }
            switch results[slot.head] {
            case .success(let run): comparisons.append(SimulationComparison(ref: ref, base: base, head: run))
            case .failure(let f):
                failed = true
                Output.err("error: \(printable(jobs[slot.head].0.file)), scenario \(printable(jobs[slot.head].1.name)): \(f.message)\n")
            }
        }
        return (comparisons, failed)
    }

    /// The policies at the merge base of `ref` and HEAD (or `ref`, with --base-exact) and in the
    /// working tree, read as `diff --base` reads them; nil once why not went to stderr.
    static func baseSides(_ ref: String, args: ParsedArguments, project: Project) -> (old: [ReviewInput], new: [ReviewInput])? {
        switch ReviewSides.resolveBase(ref, exact: args.flag("--base-exact")).flatMap({ base -> Result<(old: [ReviewInput], new: [ReviewInput]), Files.ReadError> in
            Output.err(base.line + "\n")
            return ReviewSides.againstRevision(base.commit, paths: args.positionals.isEmpty ? project.defaultPaths : args.positionals,
                                        options: project.options, baseOptions: ReviewSides.baseProject(at: base.commit, head: project).options)
        }) {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
            return nil
        case .success(let sides):
            return sides
        }
    }

    /// `--base REF`: each policy as REF has it (read as `diff --base` reads it) and as the working
    /// tree has it, under the same scenarios and seeds, side by side.
    static func againstBase(_ ref: String, args: ParsedArguments, project: Project, scenarios: [Scenario],
                            failed failedBefore: Bool, seed: UInt64?, format: String) -> Int32 {
        guard !ref.isEmpty, !ref.hasPrefix("-") else {
            return CommandLine.usageError("'\(printable(ref))' is not a git revision", command: spec)
        }
        guard let sides = baseSides(ref, args: args, project: project) else { return 2 }
        var failed = failedBefore
        Output.err(Reporters.text(sides.new.map(\.file), color: Output.useColor(fd: 2)))
        var pairs: [(base: Policy?, head: Policy)] = []
        for input in sides.new where input.file.doc?.isAbstract != true {
            guard let head = input.file.simulatable else {
                failed = true
                Output.err("\(printable(input.file.path)): not simulated: the file has errors other than the guide's limits\n")
                continue
            }
            let base = sides.old.first { $0.file.doc?.policy?.value == head.name }?.file.simulatable
            pairs.append((base, head))
        }
        let (comparisons, runFailed) = compare(pairs, scenarios: scenarios, ref: ref, profile: args.value("--profile"), seed: seed)
        failed = failed || runFailed
        let svg = SimulationComparison.svg(comparisons)
        if let chart = args.value("--chart"), let message = write(svg, to: chart) {
            Output.err("error: \(message)\n")
            return 2
        }
        switch format {
        case "json": Output.out(JSON.object(["base": .string(ref), "runs": .array(comparisons.flatMap(\.jsonRuns))]).rendered())
        case "csv":
            var out = "side," + SimulationReport([]).csv
            for c in comparisons {
                for (side, run) in [("base", c.base), ("head", c.head)] {
                    guard let run else { continue }
                    for line in SimulationReport([run]).csv.split(separator: "\n").dropFirst() { out += "\(side),\(line)\n" }
                }
            }
            Output.out(out)
        case "svg": Output.out(svg)
        case "markdown": Output.out(comparisons.map(\.markdown).joined(separator: "\n"))
        default: Output.out(comparisons.map(\.text).joined(separator: "\n"))
        }
        return failed ? 1 : 0
    }
}
