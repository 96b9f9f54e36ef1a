import PolicySource

/// The decoder's findings about keys: unknown ones (with where they belong or the key meant),
/// missing ones (with the canonical entry to add), and null values.
extension PolicyDecoder {
    /// Reports an unknown key: where it belongs when the language has it elsewhere (a key indented
    /// under the wrong parent), else the known key it most likely stands for, which it returns.
    mutating func unknownKey(_ entry: Entry, unwritten: [String], fields: [Field], owner: Label) -> String? {
        let key = entry.key
        if let home = Self.home(of: key, from: path) {
            var help = "move it into \(Self.describe(home.path))"
            if home.isAncestor {
                let levels = path.count - home.path.count
                help = "move it \(levels == 1 ? "one level" : "\(levels) levels") out, to line up with '\(excerpt(path[home.path.count]))'"
                misplaced[ExactText(home.path.joined(separator: "/")), default: []].insert(ExactText(key))
                misplacedDepths |= 1 << UInt64(min(home.path.count, 63))
            }
            let fix = home.isAncestor ? nil : moveFix(entry, to: home.path)
            fail(.unknownKey, at: entry.keySpan,
                 "key '\(key)' belongs in \(Self.describe(home.path)), not in \(owner)", help: help, fix: fix)
            return nil
        }
        let keys = fields.map(\.key)
        // A near spelling of any key; else a key it is built on, among those not written.
        let nearest = Suggest.nearest(key, in: keys) ?? Suggest.byParts(key, in: unwritten)
        guard let nearest else {
            fail(.unknownKey, at: entry.keySpan, "unknown key '\(excerpt(key))' in \(owner)",
                 help: "the keys of \(owner) are \(Wording.list(keys))")
            return nil
        }
        var fix: Fix?
        if unwritten.contains(nearest) {
            // The look-alike note too: an editor shows the fix's description without the help.
            let note = Suggest.lookAlike(key, nearest).map { " (\($0))" } ?? ""
            fix = editor().replace(entry.keySpan, with: nearest).map { Fix(.unsafe, "rename '\(excerpt(key))' to '\(nearest)'\(note)", edits: $0) }
        }
        fail(.unknownKey, at: entry.keySpan, "unknown key '\(excerpt(key))' in \(owner)", help: Suggest.didYouMean(key, nearest), fix: fix)
        return nearest
    }

    /// Reports a required key that is absent; the help and the fix hold the canonical policy's
    /// text for it, so that one round adds a whole missing section.
    mutating func missingKey(_ field: Field, in mapping: Node, entries: [Entry], fields: [Field], owner: Label, at keySpan: Span) {
        let index = canonicalIndex(field.key, entries: entries)
        guard var canonical = foundCanonical[index] else {
            fail(.missingKey, at: keySpan, "\(owner) lacks the required key '\(field.key)' (\(Self.lowercased(field.title)))",
                 help: "add '\(field.key):' with \(field.shape.expectation)")
            return
        }
        if field.key == "policy", path.isEmpty, let name = policyName {
            canonical = CanonicalEntry(lines: ["policy: \(name)"], valueLines: [name], flow: name)
        }
        let texts: MissingTexts
        if let known = recentMissing.first(where: {
            $0.key == field.key && $0.canonical == index && $0.order.elementsEqual(fields, by: { $0 == $1.key })
        }) {
            texts = known
        } else {
            let single = canonical.lines.count == 1
            texts = MissingTexts(
                key: field.key, canonical: index, order: fields.map(\.key), title: Self.lowercased(field.title),
                help: single ? "add '\(field.key): \(canonical.flow)'"
                    : "add it as the canonical policy has it:\n" + canonical.lines.joined(separator: "\n"),
                fix: single ? "add '\(field.key): \(canonical.flow)'" : "add the canonical '\(field.key)'")
            if recentMissing.count == Self.recent { recentMissing.removeFirst() }
            recentMissing.append(texts)
        }
        let fix = editor().insertEntry(field.key, lines: canonical.lines, flow: canonical.flow, into: mapping,
                                       order: texts.order, separated: path.isEmpty && canonical.lines.count > 1)
            .map { Fix(.unsafe, texts.fix, edits: $0) }
        fail(.missingKey, at: keySpan, "\(owner) lacks the required key '\(field.key)' (\(texts.title))", help: texts.help, fix: fix)
    }

    /// What a missing key's findings say, for its key and canonical entry (by its place in
    /// `foundCanonical`) in a mapping of the keys `order`.
    struct MissingTexts {
        var key: String
        var canonical: Int
        var order: [String]
        var title: String
        var help: String
        var fix: String
    }

    /// A title as it reads inside a sentence: "Retry budget" becomes "retry budget", while
    /// "HTTP status" keeps its capitals.
    static func lowercased(_ title: String) -> String {
        title.dropFirst().first?.isUppercase == true ? title : title.prefix(1).lowercased() + title.dropFirst()
    }

    /// Reports a key written without a value; its fix writes the canonical policy's value.
    mutating func failNull(_ entry: Entry, in mapping: Node, shape: Shape, key: Label) {
        guard diagnostics.count < room else {
            suppressed += 1
            return
        }
        let message = "\(key) has no value; it must be \(shape.expectation)"
        guard case .mapping(let siblings) = mapping.kind,
              let canonical = canonicalEntry(path.last ?? entry.key, entries: siblings, parentPath: path.dropLast(),
                                              profile: entry.value) else {
            fail(.typeMismatch, at: entry.value.span, message)
            return
        }
        let help = canonical.valueLines.count == 1
            ? "for example \(canonical.flow)"
            : "for example, as the canonical policy has it:\n" + canonical.lines.joined(separator: "\n")
        let fix = editor().fillValue(of: entry, in: mapping, lines: canonical.valueLines, flow: canonical.flow)
            .map { Fix(.unsafe, "write the canonical value", edits: $0) }
        fail(.typeMismatch, at: entry.value.span, message, help: help, fix: fix)
    }

    /// The canonical policy's entry `key` for the mapping at `parentPath` (the current one by
    /// default); a profile's is that of the canonical profile of its kind. `profile` is the
    /// profile's own value when the caller has it: looking it up by name among `entries` (all
    /// the profiles) made a thousand findings on a mapping of 80,000 profiles quadratic.
    mutating func canonicalEntry(_ key: String, entries: [Entry], parentPath: ArraySlice<String>? = nil,
                                 profile: Node? = nil) -> CanonicalEntry? {
        foundCanonical[canonicalIndex(key, entries: entries, parentPath: parentPath, profile: profile)]
    }

    /// `canonicalEntry`'s place in `foundCanonical`.
    private mutating func canonicalIndex(_ key: String, entries: [Entry], parentPath: ArraySlice<String>? = nil,
                                         profile: Node? = nil) -> Int {
        var canonicalPath = Array(parentPath ?? path[...])
        if canonicalPath.count >= 3, canonicalPath[0] == "retry", canonicalPath[1] == "profiles" {
            var kind: String?
            if case .scalar(let text, _)? = entries.first(where: { sameText($0.key, "kind") })?.value.kind { kind = text }
            canonicalPath[2] = CanonicalEntry.profileName(kind: kind)
        } else if canonicalPath.count == 2, canonicalPath == ["retry", "profiles"] {
            // A profile itself: the canonical one of its kind.
            var kind: String?
            if case .mapping(let fields)? = (profile ?? entries.first(where: { sameText($0.key, key) })?.value)?.kind,
               case .scalar(let text, _)? = fields.first(where: { sameText($0.key, "kind") })?.value.kind { kind = text }
            return canonical(CanonicalEntry.profileName(kind: kind ?? key), at: canonicalPath)
        }
        return canonical(key, at: canonicalPath)
    }

    /// `CanonicalEntry.find`, once per key and path for the file: each call cuts the entry's
    /// lines out of the canonical text again, which is dear, and a file of many findings asks for
    /// the same few entries again and again. Its place in `foundCanonical`.
    private mutating func canonical(_ key: String, at path: [String]) -> Int {
        if let known = recentCanonical.first(where: { $0.key == key && $0.path == path }) { return known.index }
        let id = (path + [key]).joined(separator: "\u{0}")
        let index: Int
        if let known = canonicalEntries[id] {
            index = known
        } else {
            index = foundCanonical.count
            foundCanonical.append(CanonicalEntry.find(key, at: path))
            canonicalEntries[id] = index
        }
        if recentCanonical.count == Self.recent { recentCanonical.removeFirst() }
        recentCanonical.append((key, path, index))
        return index
    }

    // MARK: where keys belong

    /// The mappings of the language that have each key, as paths ("*" a profile, "-" a list item).
    /// Looked up by bytes: a key written with the Kelvin sign is not `reuseKey`, and is not hashed
    /// whole as Unicode (normalizing a very long key is slow).
    static let homes: [ExactText: [[String]]] = {
        var table: [ExactText: [[String]]] = [:]
        func walk(_ shape: Shape, _ path: [String]) {
            switch shape {
            case .object(let fields):
                for f in fields {
                    table[ExactText(f.key), default: []].append(path)
                    walk(f.shape, path + [f.key])
                }
            case .namedMap(let inner, _): walk(inner, path + ["*"])
            case .list(let inner, _): walk(inner, path + ["-"])
            case .either(let scalar, let container):
                walk(scalar, path)
                walk(container, path)
            default: break
            }
        }
        walk(.object(Language.root), [])
        return table
    }()

    /// Where a key unknown at `path` belongs, if the language has it elsewhere: the nearest
    /// mapping above (then named as written) or, failing that, the first that has it.
    static func home(of key: String, from path: [String]) -> (path: [String], isAncestor: Bool)? {
        guard let homes = homes[ExactText(key)] else { return nil }
        var best: [String]?
        for home in homes where home.count < path.count {
            let matches = zip(home, path).allSatisfy { h, p in sameText(h, p) || (h == "*" && p != "-") }
            if matches, home.count > (best?.count ?? -1) { best = Array(path.prefix(home.count)) }
        }
        if let best { return (best, true) }
        return homes.first.map { ($0, false) }
    }

    /// A section written at the wrong level (`budget:` at the top level) moved into the one
    /// mapping of the language that has it, its values and comments kept: safe, as nothing else
    /// could be meant. None when that is not certain: the key has more than one home, the home is
    /// not written as a block mapping, or already has the key.
    mutating func moveFix(_ entry: Entry, to home: [String]) -> Fix? {
        guard Self.homes[ExactText(entry.key)]?.count == 1, !home.contains("*"), !home.contains("-"),
              let order = Self.fields(at: home)?.map(\.key) else { return nil }
        let editor = editor()
        guard let target = editor.node(at: home), case .mapping(let entries) = target.kind, !entries.isEmpty,
              !entries.contains(where: { sameText($0.key, entry.key) }),
              let edits = editor.moveEntry(entry, into: target, order: order) else { return nil }
        return Fix(.safe, "move '\(excerpt(entry.key))' into \(Self.describe(home))", edits: edits)
    }

    /// The fields of the language's mapping at `path` (no profile or list item in it).
    static func fields(at path: [String]) -> [Field]? {
        var fields = Language.root
        for key in path {
            guard let field = fields.first(where: { $0.key == key }), case .object(let inner) = field.shape else { return nil }
            fields = inner
        }
        return fields
    }

    /// Keys of `entries`, unknown in a mapping of `fields`, whose one home is a mapping below it not
    /// decoded yet (`budget:` at the top level belongs in `retry`): recorded as misplaced before
    /// the home is decoded, so that it does not also report them missing. Only a mapping of the
    /// language's size is looked through (a hostile one has thousands of keys).
    mutating func noteMisplacedBelow(_ entries: [Entry], fields: [Field]) {
        guard entries.count <= 64 else { return }
        for entry in entries where !fields.contains(where: { sameText($0.key, entry.key) }) {
            guard let homes = Self.homes[ExactText(entry.key)], homes.count == 1, let home = homes.first,
                  home.count > path.count, !home.contains("*"), !home.contains("-"),
                  zip(home, path).allSatisfy({ sameText($0, $1) }) else { continue }
            misplaced[ExactText(home.joined(separator: "/")), default: []].insert(ExactText(entry.key))
            misplacedDepths |= 1 << UInt64(min(home.count, 63))
        }
    }

    /// A mapping of the language in words: "the top level", "'retry'", "profile 'fast'", "a profile".
    static func describe(_ path: [String]) -> String {
        guard let last = path.last else { return "the top level" }
        if path.count == 3, path[1] == "profiles" { return last == "*" ? "a profile" : "profile '\(excerpt(last))'" }
        if last == "-", path.count >= 2 { return "an item of '\(path[path.count - 2])'" }
        return "'\(path.map { $0 == "*" ? "<profile>" : excerpt($0) }.joined(separator: "."))'"
    }
}
