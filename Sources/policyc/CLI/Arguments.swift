import PolicyKit

/// A small, table-driven argument parser in the conventions of swift-argument-parser:
/// `--name value`, `--name=value`, flags, `--` to end options, `-` as a path.
struct OptionSpec: Sendable {
    var name: String
    /// Nil for a flag; else how the value is shown in help (`FORMAT`).
    var valueName: String?
    /// The values accepted, when the set is closed.
    var allowed: [String]? = nil
    var help: String
    /// Shown in help as the default.
    var defaultValue: String? = nil
    /// May be given more than once (`--scenario a --scenario b`); read with `values(_:)`.
    var repeatable = false
}

struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var usage: String
    var arguments: [(String, String)] = []
    var options: [OptionSpec] = []
    var discussion: String? = nil
    var run: @Sendable (ParsedArguments) -> Int32
}

struct ParsedArguments {
    var command: String
    /// Every value of each option, in the order given.
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// The value of a single-valued option (the last, were it given twice).
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option, in the order given.
    func values(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

struct UsageError: Error {
    var message: String
}

enum ArgumentParser {
    static func parse(_ args: [String], for spec: CommandSpec) -> Result<ParsedArguments, UsageError> {
        var parsed = ParsedArguments(command: spec.name)
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            if arg == "-h" || arg == "--help" {
                parsed.flags.insert("--help")
                continue
            }
            var name = arg
            var inlineValue: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let hint = Suggest.nearest(name, in: spec.options.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                return .failure(UsageError(message: "unknown option '\(printable(name))'\(hint)"))
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    return .failure(UsageError(message: "option '\(name)' takes no value"))
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if i < args.count {
                value = args[i]
                i += 1
            } else {
                return .failure(UsageError(message: "option '\(name)' needs a value (\(valueName))"))
            }
            if let allowed = option.allowed, !allowed.contains(value) {
                return .failure(UsageError(
                    message: "unknown \(valueName.lowercased()) '\(printable(value))' for '\(name)'; expected one of \(allowed.joined(separator: ", "))"))
            }
            if parsed.values[name] != nil, !option.repeatable {
                return .failure(UsageError(message: "option '\(name)' is given twice"))
            }
            parsed.values[name, default: []].append(value)
        }
        return .success(parsed)
    }

    /// OVERVIEW / USAGE / ARGUMENTS / OPTIONS, as swift-argument-parser prints them, with the
    /// placeholders spelt as SPEC and the usage lines spell them (`--out DIR`, `PATH`).
    static func help(for spec: CommandSpec) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n\nUSAGE: \(spec.usage)\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for (name, help) in spec.arguments {
                out += row(name, help)
            }
        }
        out += "\nOPTIONS:\n"
        for option in spec.options {
            var left = option.name
            if let v = option.valueName { left += " " + v }
            var help = option.help
            if let allowed = option.allowed { help += " (values: \(allowed.joined(separator: ", ")))" }
            if let d = option.defaultValue { help += " (default: \(d))" }
            out += row(left, help)
        }
        out += row("-h, --help", "Show help information.")
        if let discussion = spec.discussion {
            out += "\n" + discussion + "\n"
        }
        return out
    }

    static func row(_ left: String, _ help: String) -> String {
        let pad = left.count < 24 ? String(repeating: " ", count: 24 - left.count) : "\n" + String(repeating: " ", count: 26)
        return "  " + left + pad + help + "\n"
    }
}
