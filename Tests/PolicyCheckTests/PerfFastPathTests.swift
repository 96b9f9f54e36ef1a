import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// The byte-level fast paths of issue "Speed" must never change a result: each either declines
/// (and the full parser decides) or returns exactly what the full, Character-based code returns.
/// Correctness only; nothing here is timed.
@Suite struct PerfFastPathTests {
    static func names() -> [String] {
        var out = ["", "-", "--", "a", "A", "ios-player", "ticketPlay", "myURL", "my-url", "URLFast", "a1B2",
                   "live-edge", "budget-ratio", "x-", "-x", "a--b", "abcDEFghi", "HTTPServer2Go", "v2-API",
                   "9lives", "aB-Cd-EF-gH", "ABC", "aBC", "AbC-dEf"]
        var rng = Rng(state: 3)
        let alphabet = Array("abcxyzABCXYZ0129-")
        for _ in 0..<3000 {
            out.append(String((0..<(1 + rng.below(12))).map { _ in rng.pick(alphabet) }))
        }
        return out
    }

    @Test func asciiNamesConvertAsTheCharacterCodeDoes() {
        for name in Self.names() {
            #expect(ASCIIName.convert(name, .screamingSnake) != nil, "\(name)")
            #expect(Naming.upperCamel(name) == Naming.upperCamelByCharacters(name), "\(name)")
            #expect(Naming.lowerCamel(name) == Naming.lowerCamelByCharacters(name), "\(name)")
            #expect(Naming.screamingSnake(name) == Naming.screamingSnakeByCharacters(name), "\(name)")
        }
        // Anything else goes the Character way.
        for name in ["ça-va", "a_b", "a b", "日本", "e\u{301}-x"] {
            #expect(ASCIIName.convert(name, .upperCamel) == nil)
            #expect(Naming.screamingSnake(name) == Naming.screamingSnakeByCharacters(name))
        }
    }

    /// The byte writer that `convert` and `name-collision` use gives the Character code's
    /// identifiers, for each kind, also when written after other identifiers in one buffer.
    @Test func asciiNamesWriteTheBytesTheCharacterCodeMakes() {
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4 * Values.maxNameLength)
        defer { out.deallocate() }
        var written = 0
        for name in Self.names() where Values.isName(name) {
            var utf8 = name
            utf8.withUTF8 { b in
                for (kind, reference) in [(ASCIIName.Kind.upperCamel, Naming.upperCamelByCharacters(name)),
                                          (.lowerCamel, Naming.lowerCamelByCharacters(name)),
                                          (.screamingSnake, Naming.screamingSnakeByCharacters(name))] {
                    let end = ASCIIName.write(b, kind, to: out, at: 7)
                    #expect(Array(out[7..<end]) == Array(reference.utf8), "\(name) \(kind)")
                    written += 1
                }
            }
        }
        #expect(written > 1000)
    }

    /// `Values.isName` as it was written on an array of the bytes.
    static func referenceIsName(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard !u.isEmpty, u.count <= Values.maxNameLength, Values.isLower(u[0]) else { return false }
        var i = 1
        while i < u.count, Values.isLower(u[i]) || Values.isUpper(u[i]) || Values.isDigit(u[i]) { i += 1 }
        while i < u.count {
            guard u[i] == 0x2D else { return false }
            i += 1
            let start = i
            while i < u.count, Values.isLower(u[i]) || Values.isDigit(u[i]) { i += 1 }
            if i == start { return false }
        }
        return true
    }

    @Test func isNameAgreesWithTheArrayVersion() {
        var names = Self.names() + ["ça-va", "a_b", "a b", "日本", "e\u{301}-x", "p" + String(repeating: "x", count: 63),
                                    "p" + String(repeating: "x", count: 64), "a-", "a-1", "a-B"]
        var rng = Rng(state: 37)
        for _ in 0..<2000 {
            names.append("a" + String((0..<rng.below(70)).map { _ in rng.pick(Array("ab-9Z")) }))
        }
        for name in names {
            #expect(Values.isName(name) == Self.referenceIsName(name), "\(name)")
            // One pass for both: the fold of a name, nil for what is not one.
            #expect(NameFold.ofName(name) == (Self.referenceIsName(name) ? NameFold.of(name) : nil), "\(name)")
        }
    }

    /// A fold read eight bytes at a time is the one read byte by byte, whatever the text: any
    /// bytes, dashes and underscores anywhere, any length; and each eight-byte check says of every
    /// byte, in every place of the word, what the one-byte check says.
    @Test func foldsReadEightBytesAtATimeAsOneByOne() {
        func reference(_ text: String) -> UInt64 {
            var folder = NameFold.Folder()
            for c in text.utf8 where c != 0x2D && c != 0x5F { folder.add(ASCIIName.lower(c)) }
            return folder.value
        }
        var rng = Rng(state: 53)
        let pieces = ["a", "z", "A", "Z", "0", "9", "-", "_", " ", "@", "[", "`", "{", "/", ":", "é", "日", "\u{0}", "\u{7F}", "\u{80}"]
        var texts = ["", "a", "abcdefgh", "abcdefghi", "ABCDEFGH-ijklmnop", "a-bcdefghijklmnopq",
                     String(repeating: "aZ-9", count: 20), String(repeating: "aZ-9", count: 4) + "_" + String(repeating: "b", count: 20),
                     String(repeating: "x", count: 17) + "é" + String(repeating: "y", count: 9)]
        for _ in 0..<4000 {
            texts.append((rng.below(2) == 0 ? "a" : "") + String((0..<rng.below(90)).map { _ in rng.below(3) == 0 ? rng.pick(pieces) : rng.pick(["b", "Q", "7", "-"]) }.joined()))
        }
        for text in texts {
            #expect(text.utf8.withContiguousStorageIfAvailable(ASCIIName.isASCIIName)
                    == text.utf8.allSatisfy { Values.isLower($0) || Values.isUpper($0) || Values.isDigit($0) || $0 == 0x2D }, "\(text.debugDescription)")
            #expect(NameFold.of(text) == reference(text), "\(text.debugDescription)")
            #expect(NameFold.ofName(text) == (Self.referenceIsName(text) ? reference(text) : nil), "\(text.debugDescription)")
        }
        #expect(Set(texts.map(NameFold.of)).count > 3900)
        for v in 0...255 {
            let c = UInt8(v)
            for lane in 0..<8 {
                for filler: UInt8 in [0x00, 0x2D, 0x41, 0x61, 0x39, 0x7F, 0x80, 0xFF] {
                    let bytes = (0..<8).map { $0 == lane ? c : filler }
                    let w = bytes.withUnsafeBufferPointer { Bytes8.load($0, at: 0) }
                    let (lower, upper, digit) = (Values.isLower(c), Values.isUpper(c), Values.isDigit(c))
                    #expect((Bytes8.within(w, 0x41, 0x5A) >> (8 * lane + 7)) & 1 == (upper ? 1 : 0), "\(v) \(lane) \(filler)")
                    #expect(Bytes8.has(w, c), "\(v) \(lane) \(filler)")
                    #expect(Bytes8.has(w, 0x2D) == (c == 0x2D || filler == 0x2D), "\(v) \(lane) \(filler)")
                    let lowered = bytes.map(ASCIIName.lower).withUnsafeBufferPointer { Bytes8.load($0, at: 0) }
                    #expect(Bytes8.lowercased(w) == lowered, "\(v) \(lane) \(filler)")
                    let fillerOK = (Values.isLower(filler) || Values.isUpper(filler) || Values.isDigit(filler), Values.isLower(filler) || Values.isDigit(filler))
                    #expect(Bytes8.allLettersOrDigits(w) == ((lower || upper || digit) && fillerOK.0), "\(v) \(lane) \(filler)")
                    #expect(Bytes8.allLowercaseOrDigits(w) == ((lower || digit) && fillerOK.1), "\(v) \(lane) \(filler)")
                    #expect(Bytes8.allLettersDigitsOrDashes(w) == ((lower || upper || digit || c == 0x2D) && (fillerOK.0 || filler == 0x2D)),
                            "\(v) \(lane) \(filler)")
                }
            }
        }
        // Camel-case identifiers copied (names without dashes), and SCREAMING_SNAKE ones, are those
        // the Character code makes, for long names too.
        for name in texts.filter(Values.isName) + ["ab", "abcdefghijklmnopq", "aBCDEFGHIJ", "a-b", "abcdefgh-ijk"] {
            #expect(ASCIIName.convert(name, .lowerCamel) == Naming.lowerCamelByCharacters(name), "\(name)")
            #expect(ASCIIName.convert(name, .upperCamel) == Naming.upperCamelByCharacters(name), "\(name)")
            #expect(ASCIIName.convert(name, .screamingSnake) == Naming.screamingSnakeByCharacters(name), "\(name)")
        }
    }

    @Test func takenTableAgreesWithNamingsSets() {
        let words = Naming.swiftKeywords.union(Naming.kotlinKeywords).union(Naming.swiftMembers).union(Naming.kotlinMembers)
        for word in Array(words) + Self.names().map(Naming.lowerCamel) + Self.names().map(Naming.screamingSnake) {
            let taken = NameAdvice.taken(word)
            #expect(taken.contains(.swiftKeyword) == Naming.swiftKeywords.contains(word), "\(word)")
            #expect(taken.contains(.kotlinKeyword) == Naming.kotlinKeywords.contains(word), "\(word)")
            #expect(taken.contains(.swiftMember) == Naming.swiftMembers.contains(word), "\(word)")
            #expect(taken.contains(.kotlinMember) == Naming.kotlinMembers.contains(word), "\(word)")
        }
    }

    /// A name's constants looked up by their bytes are taken by what the Strings are: for every
    /// taken word, its variants in case and dashes, random names, and names past ASCII (looked up
    /// as Strings).
    @Test func constantsLookedUpByBytesAreTakenAsTheirStrings() {
        var rng = Rng(state: 53)
        var names: [String] = []
        for word in NameAdvice.takenTable.keys {
            names.append(word)
            for _ in 0..<4 {
                names.append(String(word.map { c in
                    let s = rng.below(3) == 0 ? (c.isUppercase ? c.lowercased() : c.uppercased()) : String(c)
                    return rng.below(5) == 0 ? "-" + s : s
                }.joined()))
            }
        }
        for _ in 0..<2000 { names.append("a" + String((0..<rng.below(12)).map { _ in rng.pick(Array("aBZz09-")) })) }
        names += ["défaut", "-", "--", "x-", "a--b", "aURLB", "my-URL"]
        var taken = 0
        for name in names {
            let expected = (swift: NameAdvice.taken(Naming.swiftProfile(name)), kotlin: NameAdvice.taken(Naming.kotlinProfile(name)))
            let found = NameAdvice.takenConstants(name)
            #expect(found.swift == expected.swift && found.kotlin == expected.kotlin, "\(name)")
            #expect(NameAdvice.takenConstants(name, swiftOnly: true) == (expected.swift, []), "\(name)")
            if !expected.swift.isEmpty || !expected.kotlin.isEmpty { taken += 1 }
        }
        #expect(taken > NameAdvice.takenTable.count)
    }

    /// The property name-collision and bad-name rely on to skip names: a valid name folds as each
    /// of its identifiers does, so names with one identifier have one fold, and a name whose
    /// identifier is a taken word passes the filter of taken words.
    @Test func validNamesFoldAsTheirIdentifiers() {
        var names = Self.names().filter(Values.isName)
        var rng = Rng(state: 43)
        for _ in 0..<3000 {
            names.append("a" + String((0..<rng.below(10)).map { _ in rng.pick(Array("aBZz09-")) }))
        }
        names = names.filter(Values.isName)
        #expect(names.count > 2000)
        for name in names {
            let fold = NameFold.of(name)
            #expect(NameFold.of(Naming.swiftProfile(name)) == fold, "\(name)")
            #expect(NameFold.of(Naming.kotlinProfile(name)) == fold, "\(name)")
            #expect(NameFold.of(Naming.typeScriptProfile(name)) == fold, "\(name)")
            if NameAdvice.taken(Naming.lowerCamel(name)) != [] || NameAdvice.taken(Naming.kotlinProfile(name)) != [] {
                #expect(NameAdvice.mayBeTaken(fold: fold), "\(name)")
            }
        }
        // Every taken word passes the filter, and most other names do not (else it saves nothing).
        for word in NameAdvice.takenTable.keys {
            #expect(NameAdvice.mayBeTaken(fold: NameFold.of(word)), "\(word)")
        }
        let passed = names.count { NameAdvice.mayBeTaken(fold: NameFold.of($0)) }
        #expect(passed < names.count / 10)
        // Names that collide share a fold; names that do not mostly do not.
        #expect(NameFold.of("ticket-play") == NameFold.of("ticketPlay"))
        #expect(NameFold.of("my-url") == NameFold.of("myURL"))
        #expect(NameFold.of("ticket-play") != NameFold.of("ticket-pay"))
    }

    /// A large group of one fold (found through `firstEarlier`): names that differ in their
    /// capitals and dashes, some alike in Swift or in Kotlin only, each reported once.
    @Test func aLargeGroupOfOneFoldIsFound() throws {
        var rng = Rng(state: 71)
        var seen = Set<String>()
        var text = "version: 1\npolicy: p\nretry:\n  profiles:\n"
        while seen.count < 4_600 {
            let name = "t" + "icketplayer".map { c in
                (rng.below(4) == 0 ? "-" : "") + (rng.below(3) == 0 ? String(c).uppercased() : String(c))
            }.joined()
            guard Values.isName(name), seen.insert(name).inserted else { continue }
            text += "    \(name): {kind: background, maxRetries: 1, base: 1s, cap: 8s, timeout: 10s, deadline: 60s}\n"
        }
        let bytes = Array(text.utf8)
        let one = Checker.check(bytes, path: "p.yaml").diagnostics
        let collisions = one.filter { $0.rule == "name-collision" }
        #expect(collisions.count > 100)
        #expect(Set(collisions.map(\.span.start)).count == collisions.count)
    }

    /// name-collision through folds finds what comparing every profile's identifiers finds.
    @Test func nameCollisionFindsWhatComparingAllIdentifiersFinds() throws {
        var rng = Rng(state: 47)
        var collisions = 0, members = 0
        // Words whose constants generated members, keywords or both take.
        let takenWords = ["budget-ratio", "prefetch-retry-refused", "never-retry", "viewer-ref", "all-profiles",
                          "is-retryable", "policy-name", "default", "class", "profile-kinds", "backoff-ms"]
        /// `word` with its dashes kept, dropped or made humps, and with some other letters raised
        /// or dashes added (one time in two): names of its fold, some taken, some not.
        func variant(of word: String) -> String {
            let noisy = rng.below(2) == 0
            var raise = false
            return word.enumerated().map { i, c -> String in
                if c == "-" {
                    let choice = rng.below(3)
                    raise = choice == 1
                    return choice == 0 ? "-" : ""
                }
                defer { raise = false }
                let letter = raise || (noisy && i > 0 && rng.below(4) == 0) ? c.uppercased() : String(c)
                return (noisy && i > 0 && rng.below(9) == 0 ? "-" : "") + letter
            }.joined()
        }
        for round in 0..<56 {
            // Rounds 34 to 43 make groups of one fold larger than the rule sorts in place; 40 to 43,
            // groups without a dash, whose Swift constants are the names themselves. From 44 on,
            // names of the folds of taken words: alone in their fold (44 to 47), in small groups
            // (48 to 51) and in large ones.
            let words = (0..<(round < 48 ? 6 : 2)).map { _ in rng.pick(takenWords) }
            let names = (0..<(round < 44 ? 2 + rng.below(round < 34 ? 30 : 400) : round < 48 ? 1 + rng.below(5)
                              : round < 52 ? 2 + rng.below(24) : 100 + rng.below(300))).enumerated().map { i, _ in
                round < 37
                    ? "p" + (0..<rng.below(round < 34 ? 4 : 7)).map { _ in rng.pick(["a", "B", "-b", "b", "1", "-1"]) }.joined()
                    : round < 40
                    ? "p" + (0..<5).map { _ in rng.pick(["B", "-b", "b"]) }.joined()  // one fold, up to 243 names
                    : round < 44
                    ? "p" + (0..<7).map { _ in rng.pick(["B", "b"]) }.joined()  // one fold, up to 128 names
                    : i == 0 && round % 2 == 0 ? words[0] : variant(of: round < 48 ? words[i] : rng.pick(words))
            }
            var seen = Set<String>()
            let unique = names.filter { seen.insert($0).inserted }
            let profiles = unique.map { "    \($0): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n" }
            let text = "version: 1\npolicy: p\nretry:\n  profiles:\n" + profiles.joined()
            let found = Checker.check(Array(text.utf8), path: "p.yaml").diagnostics
                .filter { $0.rule == "name-collision" }.map { $0.span.start.line }
            // Reference: every pair compared by its identifiers (valid, non-reserved names only).
            var expected: [Int] = []
            for (j, name) in unique.enumerated() where Values.isName(name) && NameAdvice.reservedIn(name) == nil {
                let earlier = unique[..<j].contains { other in
                    Values.isName(other) && NameAdvice.reservedIn(other) == nil
                        && (Naming.swiftProfile(other) == Naming.swiftProfile(name)
                            || Naming.kotlinProfile(other) == Naming.kotlinProfile(name))
                }
                let taken = NameAdvice.taken(Naming.swiftProfile(name)).union(NameAdvice.taken(Naming.kotlinProfile(name)))
                let member = !taken.intersection([.swiftMember, .kotlinMember, .typeScriptMember]).isEmpty
                if earlier || member { expected.append(5 + j) }
                if member { members += 1 }
            }
            #expect(found == expected, "round \(round): \(unique)")
            collisions += expected.count
        }
        #expect(collisions > 20)
        #expect(members > 20)
    }

    /// The first earlier item of each key, by its bytes' hash: as a table of first occurrences
    /// says, for keys that are empty, prefixes of others or past ASCII, at sizes on both sides of
    /// where the hashes are sorted by radix.
    @Test func firstEarlierIsTheFirstOccurrenceAtEverySize() {
        func firsts(_ keys: [String], hash: (UnsafeBufferPointer<UInt8>) -> UInt64 = hashOfBytes) -> [Int32?] {
            var bytes: [UInt8] = []
            var ends: [Int32] = []
            for key in keys {
                bytes += Array(key.utf8)
                ends.append(Int32(bytes.count))
            }
            return bytes.withUnsafeBufferPointer { firstEarlier($0, ends: ends, hash: hash) }
        }
        var rng = Rng(state: 41)
        for count in [0, 1, 2, 15, 16, 17, 50, 300, 5_000] {
            let keys: [String] = (0..<count).map { _ in
                rng.below(9) == 0 ? "" : "k" + String(repeating: "1", count: rng.below(3)) + "\(rng.below(count / 3 + 1))"
            }
            var reference: [String: Int32] = [:]
            var expected: [Int32?] = []
            for (i, key) in keys.enumerated() {
                expected.append(reference[key])
                if reference[key] == nil { reference[key] = Int32(i) }
            }
            #expect(firsts(keys) == expected, "\(count)")
            // A hash of the length alone: keys of one length share their hash bits, and only their
            // bytes tell them apart.
            #expect(firsts(keys) { UInt64($0.count) << 56 } == expected, "\(count), colliding")
        }
        // By bytes: canonically equivalent keys are two keys.
        #expect(firsts(["\u{E9}", "e\u{301}", "\u{E9}"]) == [nil, nil, 0])
    }

    /// The hash of keys' bytes is the standard library's `Hasher` (seeded per process), and tells
    /// apart what it is given in practice: keys that differ only in a trailing zero byte or in
    /// their length, in one byte anywhere, at every length across the eight-byte steps (a
    /// collision of 64 bits among these would be a broken hash, not bad luck).
    @Test func hashOfBytesIsHashersAndTellsKeysApart() {
        var keys: Set<[UInt8]> = [[], [0], [0, 0], [97], [97, 0], Array(repeating: 0, count: 8), Array(repeating: 0, count: 9)]
        var rng = Rng(state: 59)
        for length in 0..<40 {
            let base = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.below(256)) }
            keys.insert(base)
            for i in 0..<length {
                var changed = base
                changed[i] ^= UInt8(1 << rng.below(8))
                keys.insert(changed)
            }
        }
        for _ in 0..<20_000 { keys.insert((0..<rng.below(30)).map { _ in UInt8(97 + rng.below(26)) }) }
        let hashes = Set(keys.map { key in key.withUnsafeBufferPointer(hashOfBytes) })
        #expect(hashes.count == keys.count)
        for key in keys.prefix(200) {
            var hasher = Hasher()
            key.withUnsafeBytes { hasher.combine(bytes: $0) }
            #expect(key.withUnsafeBufferPointer(hashOfBytes) == hasher.finalize64(), "\(key)")
        }
    }

    /// Comparing squashed (on the bytes, or scalar by scalar as they are lowered) says what
    /// squashing both whole with `lowercased()` and comparing their scalars says: for ASCII keys
    /// in any case with any separators, and for text past ASCII (the Kelvin sign lowercases to
    /// "k", İ to "i" and a combining dot, a combining mark after "I" stays) anywhere in either.
    @Test func sameSquashedIsSquashingBoth() {
        func squash(_ text: String) -> [Unicode.Scalar] {
            Array(text.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        }
        var rng = Rng(state: 47)
        let pieces = ["max", "Max", "MAX", "retries", "Retries", "_", "-", " ", "k", "K", "\u{212A}", "I",
                      "\u{307}", "é", "e\u{301}", "ß", "SS", "a", "", "İ", "i\u{307}", "_\u{301}", "Σ"]
        var words = ["maxRetries", "max_retries", "max-Retries", "MAXRETRIES", "maxRetrie", "maxRetriess", "",
                     "-", "k", "\u{212A}", "K"]
        for _ in 0..<600 { words.append((0..<rng.below(6)).map { _ in rng.pick(pieces) }.joined()) }
        var same = 0
        for a in words {
            for b in [rng.pick(words), rng.pick(words), a.uppercased(), a.replacingOccurrences(of: "_", with: "-")] {
                let expected = squash(a) == squash(b)
                #expect(Suggest.sameSquashed(a, b) == expected, "\(a.debugDescription) \(b.debugDescription)")
                #expect(Array(IteratorSequence(Suggest.Lowered(a, squashed: true))) == squash(a), "\(a.debugDescription)")
                if expected { same += 1 }
            }
        }
        #expect(same > 600 && same < 4 * words.count - 100)
    }

    /// `name-collision`'s radix sort gives `sorted()`'s order: at sizes around the switch from
    /// `sort()`, for values spread over all 64 bits, values that share all but their lowest
    /// digit (the skipped digits), a digit most values share, repeats, and the extremes.
    @Test func radixSortIsTheSortedOrder() {
        var rng = Rng(state: 43)
        let minimum = [UInt64].radixMinimum
        for count in [0, 1, 2, minimum - 1, minimum, minimum + 1, 3000, 70_000] {
            let spread = (0..<count).map { _ in rng.next() << 31 ^ rng.next() }
            let low = (0..<count).map { _ in 0xABCD_0000_0000_0000 | UInt64(rng.below(1 << 11)) }
            let repeats = (0..<count).map { _ in [0, 1, UInt64.max, UInt64.max - 1, 1 << 63][rng.below(5)] }
            let indexed = spread.indices.map { i in spread[i] & ~0xFFFF | UInt64(i) }
            // A digit most values share, but not all: it must still be sorted by.
            let skewed = (0..<count).map { _ in UInt64(rng.below(8) == 0 ? 1 : 0) << 20 | UInt64(rng.below(1 << 11)) }
            for values in [spread, low, repeats, indexed, skewed, spread.sorted(), spread.sorted().reversed()] {
                var sorted = values
                sorted.radixSort()
                #expect(sorted == values.sorted(), "\(count) values")
            }
        }
    }

    /// bad-name's suggestion, its words read from the bytes, is the one made scalar by scalar:
    /// the ASCII letters and digits of the name, every other scalar ending a word.
    @Test func nameSuggestionsReadFromBytesAreThoseReadByScalars() {
        func reference(_ name: String, isProfile: Bool) -> String? {
            guard name.unicodeScalars.count(where: { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
                <= Values.maxNameLength else { return nil }
            var words: [String] = [], current = ""
            for scalar in name.unicodeScalars {
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    current.unicodeScalars.append(scalar)
                } else if !current.isEmpty {
                    words.append(current)
                    current = ""
                }
            }
            if !current.isEmpty { words.append(current) }
            guard var first = words.first else { return nil }
            first = first.prefix(1).lowercased() + first.dropFirst()
            var candidate = ([first] + words.dropFirst().map { $0.lowercased() }).joined(separator: "-")
            guard candidate.unicodeScalars.count <= Values.maxNameLength else { return nil }
            if isProfile && Values.isName(candidate) && NameAdvice.reservedIn(candidate) != nil { candidate += "-profile" }
            return NameAdvice.isUsable(candidate, isProfile: isProfile) && !sameText(candidate, name) ? candidate : nil
        }
        var rng = Rng(state: 79)
        let pieces = ["ios", "Player", "_", "-", " ", "2", "É", "\u{212A}", "Ａ", "ǅ", "default", "x", String(repeating: "ab", count: 20), "."]
        var made = 0
        for _ in 0..<3000 {
            let name = (0..<rng.below(7)).map { _ in rng.pick(pieces) }.joined()
            for isProfile in [false, true] {
                let suggestion = NameAdvice.suggestion(for: name, isProfile: isProfile)
                #expect(suggestion == reference(name, isProfile: isProfile), "\(name.debugDescription)")
                if suggestion != nil { made += 1 }
            }
        }
        #expect(made > 1000)
    }

    /// `JSON.quote`, escaping byte by byte, writes what escaping scalar by scalar writes: quotes,
    /// backslashes, control characters (C1 kept as they are), LS and PS escaped, the rest as it is.
    @Test func jsonQuotingByBytesIsQuotingByScalars() {
        func reference(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{2028}", "\u{2029}": out += "\\u" + String(scalar.value, radix: 16)
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        var rng = Rng(state: 83)
        let pieces = ["a", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}",
                      "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "é", "日", "😀", "\u{E2}", "/"]
        for _ in 0..<3000 {
            let text = (0..<rng.below(12)).map { _ in rng.pick(pieces) }.joined()
            #expect(JSON.quote(text) == reference(text), "\(text.debugDescription)")
        }
    }

    /// `scalarCount`, counted from the bytes eight at a time, is `unicodeScalars.count`: for text
    /// of one- to four-byte scalars, at every length around the eight-byte steps.
    @Test func scalarCountIsTheScalarViewsCount() {
        var rng = Rng(state: 73)
        let pieces = ["a", "É", "日", "😀", "\u{301}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "-"]
        for length in 0..<40 {
            for _ in 0..<25 {
                let text = (0..<length).map { _ in rng.pick(pieces) }.joined()
                #expect(text.scalarCount == text.unicodeScalars.count, "\(text.debugDescription)")
                #expect(text.dropFirst(length / 2).description.scalarCount == text.dropFirst(length / 2).unicodeScalars.count)
            }
        }
    }

    /// `String.spaces`, written into the string's storage at once, is `String(repeating:)`'s
    /// spaces, and no spaces for a count below one (a column of 0 gives an indent of -1).
    @Test(arguments: [-3, -1, 0, 1, 2, 15, 16, 17, 900, 5000])
    func spacesAreThatManySpaces(_ count: Int) {
        let spaces = String.spaces(count)
        #expect(spaces == String(repeating: " ", count: max(0, count)))
        #expect(spaces.utf8.count == max(0, count))
        #expect(spaces.utf8.allSatisfy { $0 == UInt8(ascii: " ") })
        #expect((spaces + "x").count == max(0, count) + 1)
    }

    // The loader scans a small mapping for a repeated key and hashes a large one: both must
    // point at the first occurrence, at every size around the switch.
    @Test(arguments: [1, 2, 15, 16, 17, 40])
    func duplicateKeysInMappingsOfEverySize(_ keys: Int) {
        var text = ""
        for k in 0..<keys { text += "k\(k): \(k)\n" }
        text += "k\(keys - 1): again\n"
        text += "k0: again\n"
        let loaded = Loader.load(Array(text.utf8))
        let duplicates = loaded.diagnostics.filter { $0.rule == RuleID.yamlDuplicateKey }
        #expect(duplicates.count == 2)
        #expect(duplicates.first?.related.first?.span.start == Mark(line: keys, column: 1))
        #expect(duplicates.last?.related.first?.span.start == Mark(line: 1, column: 1))
        if case .mapping(let entries)? = loaded.root?.kind {
            #expect(entries.count == keys)
        } else {
            Issue.record("no mapping")
        }
    }

    // Repeated list items: scanned in a short list, hashed in a long one; both name the first.
    @Test(arguments: [2, 15, 16, 17, 40])
    func repeatedItemsInListsOfEveryLength(_ length: Int) {
        let statuses = (0..<length).map { 500 + $0 % 99 }
        var policy = Canonical.text
        let list = "[network, 429, " + statuses.map(String.init).joined(separator: ", ") + ", 429]"
        guard let start = policy.firstRange(of: "retryOn: ") else {
            Issue.record("no retryOn in the canonical policy")
            return
        }
        let lineEnd = policy[start.upperBound...].firstIndex(of: "\n") ?? policy.endIndex
        policy.replaceSubrange(start.upperBound..<lineEnd, with: list)
        let file = Checker.check(Array(policy.utf8), path: "p.yaml")
        let repeated = file.diagnostics.filter { $0.message.contains("is listed twice") }
        #expect(repeated.count == 1)
        #expect(repeated.first?.message.contains("'429' is listed twice in 'retryOn'") == true)
    }

    /// Random decoded values from few parts, so that many pairs are equal, reordered or nearly so,
    /// with text that Unicode folds (canonical equivalents of one length, Kelvin sign, a letter
    /// whose composition is excluded) and text that looks like the inside of an identity.
    struct ValueMaker {
        var rng: Rng
        static let texts = ["a", "b", "not_ready", "K", "\u{212A}", "é", "e\u{301}", "\u{958}", "\u{915}\u{93C}",
                            ",s6:status=i503", "=", "}", "s1:", "a\u{301}\u{316}", "a\u{316}\u{301}", ""]
        static let keys = ["status", "code", "k", "K", "\u{212A}", "é", "e\u{301}", "a\u{301}\u{316}", "a\u{316}\u{301}"]

        mutating func text() -> String {
            rng.pick(Self.texts) + (rng.below(4) == 0 ? rng.pick(Self.texts) : "")
        }

        mutating func value(depth: Int = 0) -> Decoded.Value {
            switch rng.below(depth >= 2 ? 6 : 9) {
            case 0: return .integer(rng.pick([0, 5, 429, 503]))
            case 1: return .duration(rng.pick([5, 1000]))
            case 2: return .boolean(rng.below(2) == 0)
            case 3: return .percent(Percent(canonical: rng.pick(["10", "2.5"])))
            case 4: return .network
            case 5: return .string(text())
            case 6: return .list((0..<rng.below(3)).map { _ in Decoded(value: value(depth: depth + 1), span: Span(.start)) })
            default:
                var entries: [DecodedEntry] = []
                for _ in 0..<rng.below(4) {
                    entries.append(DecodedEntry(key: rng.pick(Self.keys), keySpan: Span(.start),
                                                value: Decoded(value: value(depth: depth + 1), span: Span(.start))))
                }
                return .object(DecodedObject(entries))
            }
        }

        /// `value` with the entries of its objects shuffled: the same identity.
        mutating func shuffled(_ value: Decoded.Value) -> Decoded.Value {
            switch value {
            case .list(let items):
                return .list(items.map { Decoded(value: shuffled($0.value), span: $0.span) })
            case .object(let entries):
                var out = entries.map { DecodedEntry(key: $0.key, keySpan: $0.keySpan, value: Decoded(value: shuffled($0.value.value), span: $0.value.span)) }
                for i in out.indices.reversed() where i > 0 { out.swapAt(i, rng.below(i + 1)) }
                return .object(DecodedObject(out))
            default:
                return value
            }
        }
    }

    @Test func sameIdentityAgreesWithTheIdentities() {
        var maker = ValueMaker(rng: Rng(state: 29))
        var values: [Decoded.Value] = []
        for _ in 0..<1500 {
            let v = maker.value()
            values.append(v)
            values.append(maker.shuffled(v))
        }
        var same = 0, structural = 0
        for i in values.indices {
            for j in [i, i ^ 1, maker.rng.below(values.count), maker.rng.below(values.count)] {
                let a = values[i], b = values[j]
                // Identities compare by bytes, as the values' texts do.
                let expected = a.identity.utf8.elementsEqual(b.identity.utf8)
                #expect(FirstSeen.sameIdentity(a, b) == expected, "\(a.identity) \(b.identity)")
                if expected { same += 1 }
                if case .object = a, case .object = b { structural += 1 }
            }
        }
        // Both outcomes, and objects compared part by part, must be well exercised.
        #expect(same > 2000 && same < values.count * 3)
        #expect(structural > 1000)
    }

    /// Values of one identity hash alike, however their objects' entries are ordered: objects
    /// with distinct keys (hashed in key order), with a repeated key and with more entries than
    /// `sortedEntriesMaximum` (their entries' hashes summed). Each path is taken, and a
    /// different identity gives a different hash here.
    @Test func hashesAgreeWithIdentities() {
        var maker = ValueMaker(rng: Rng(state: 37))
        var values = (0..<1500).map { _ in maker.value() }
        for size in [2, 3, FirstSeen.sortedEntriesMaximum, FirstSeen.sortedEntriesMaximum + 1, 12] {
            for distinct in [true, false] {
                for _ in 0..<40 {
                    var keys = (0..<size).map { _ in maker.rng.pick(ValueMaker.keys) }
                    if distinct {
                        // The keys are distinct by bytes; a name beyond them makes up the size.
                        keys = ValueMaker.keys + (0..<size).map { "key\($0)" }
                        for i in keys.indices.reversed() where i > 0 { keys.swapAt(i, maker.rng.below(i + 1)) }
                        keys = Array(keys.prefix(size))
                    }
                    values.append(.object(DecodedObject(keys.map {
                        DecodedEntry(key: $0, keySpan: Span(.start), value: Decoded(value: maker.value(depth: 1), span: Span(.start)))
                    })))
                }
            }
        }
        // By the identity's bytes: a String key would join canonically equivalent identities.
        var byIdentity: [[UInt8]: UInt64] = [:]
        for v in values {
            let hash = FirstSeen.hash(v)
            #expect(FirstSeen.hash(maker.shuffled(v)) == hash, "\(v.identity)")
            let identity = Array(v.identity.utf8)
            if let other = byIdentity[identity] { #expect(other == hash, "\(v.identity)") }
            byIdentity[identity] = hash
        }
        #expect(byIdentity.count > 500)
        #expect(Set(byIdentity.values).count == byIdentity.count)
    }

    @Test func identitiesThatUnicodeJoinsAcrossPartsAreStillTwo() {
        // "\u{958}" normalises to two scalars, so to Swift's `==` the one code's identity reads as
        // the other pair's; by bytes they are two values, as they are to every other reader.
        let span = Span(.start)
        func pair(_ code: String, _ status: Int?) -> Decoded.Value {
            var entries = [DecodedEntry(key: "code", keySpan: span, value: Decoded(value: .string(code), span: span))]
            if let status {
                entries.append(DecodedEntry(key: "status", keySpan: span, value: Decoded(value: .integer(status), span: span)))
            }
            return .object(DecodedObject(entries))
        }
        let a = pair(String(repeating: "\u{958}", count: 5) + ",s6:status=i503", nil)
        let b = pair(String(repeating: "\u{915}\u{93C}", count: 5), 503)
        #expect(a.identity == b.identity)
        #expect(!FirstSeen.sameIdentity(a, b))
        #expect(FirstSeen.sameIdentity(a, a) && FirstSeen.sameIdentity(b, b))
        #expect(!FirstSeen.sameIdentity(a, pair("x", 503)))
    }

    @Test func repeatsAreFoundAsByIdentityInListsOfEveryLength() {
        var maker = ValueMaker(rng: Rng(state: 31))
        for length in [1, 2, 5, 15, 16, 17, 30, 200] {  // 200: the hash table grows
            for _ in 0..<60 {
                // Items drawn from a few values, so that repeats are common.
                let pool = (0..<(2 + maker.rng.below(length + 4))).map { _ in maker.value() }
                var seen = FirstSeen()
                var kept: [Decoded] = []
                var reference: [(String, Int)] = []
                for k in 0..<length {
                    let v = maker.shuffled(maker.rng.pick(pool))
                    let span = Span(Mark(line: k + 1, column: 1))
                    let expected = reference.first { $0.0.utf8.elementsEqual(v.identity.utf8) }.map { $0.1 }
                    #expect(seen.repeatOf(v, among: kept)?.start.line == expected, "\(v.identity)")
                    if expected == nil {
                        reference.append((v.identity, k + 1))
                        kept.append(Decoded(value: v, span: span))
                    }
                }
            }
        }
    }

    @Test func byteOrderIsTheOrderOfUTF8Views() {
        var rng = Rng(state: 17)
        let prefixes = ["", "a", "Benchmarks/.work/corpus/clean-2000/p1", "Policies/ios-player", "日本/"]
        let alphabet = Array("ab/.-0é日\u{0}")
        var strings: [String] = []
        for _ in 0..<600 {
            let tail = String((0..<rng.below(20)).map { _ in rng.pick(alphabet) })
            strings.append(rng.pick(prefixes) + tail)
        }
        for _ in 0..<3000 {
            let a = rng.pick(strings), b = rng.pick(strings)
            #expect(utf8Precedes(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
        }
    }

    /// The byte-by-byte check the word-at-a-time one must agree with.
    static func referenceFirstInvalid(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            if bytes[i + 1] < lower || bytes[i + 1] > upper { return i }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    @Test func utf8CheckFindsTheFirstBadByteAtEveryOffset() {
        var rng = Rng(state: 23)
        // Two-byte characters (read as a run) among the others, and sequences that break a run:
        // a lead without its continuation, a lead of two bytes before an ASCII byte, the last
        // two-byte lead (DF) and the first three-byte one (E0).
        let pieces: [[UInt8]] = [[0x61], [0x20], Array("é".utf8), Array("日".utf8), Array("😀".utf8), [0xFF], [0xC3],
                                 [0xE0, 0x80], [0xED, 0xA0, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80],
                                 Array("жж".utf8), [0xDF, 0xBF], [0xC2, 0x7F], [0xDF], [0xC1, 0xBF], [0xE0, 0xA0, 0x80],
                                 Array("日本\u{212A}\u{FFFF}".utf8), [0xEF, 0xBF], [0xE1, 0x80, 0x7F], [0xEE, 0xC0, 0x80], [0xED, 0x9F, 0xBF]]
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(40) {
                // Mostly ASCII runs, so the 32- and eight-byte steps are taken and left at every
                // offset; every other round, pieces only, so runs of two-byte characters are long.
                bytes += round % 2 == 0 || rng.below(4) == 0 ? rng.pick(pieces)
                    : [UInt8](repeating: 0x61, count: rng.below(rng.below(2) == 0 ? 12 : 90))
            }
            #expect(Encoding.firstInvalidUTF8(bytes) == Self.referenceFirstInvalid(bytes), "\(bytes)")
        }
    }
}

/// `Suggest.nearest` skips the distances when no candidate can be near enough: it must answer as
/// computing them all does.
@Suite struct SuggestShortcutTests {
    static func reference(_ word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased().unicodeScalars.prefix(64))
        var best: (String, Int)?
        for c in candidates {
            let d = Suggest.distance(w, Array(c.lowercased().unicodeScalars))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        if d <= max(2, max(w.count, candidate.count) / 3) { return candidate }
        let squash = { (s: String) in Array(s.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " }) }
        return candidates.first { squash($0) == squash(word) }
    }

    /// `Lowered` and `lowercasedScalars(upTo:)` give `lowercased()`'s scalars, the first `limit`:
    /// lowercasing maps each scalar on its own (final sigma too), İ to two scalars.
    @Test func loweringScalarByScalarIsLowercased() {
        var rng = Rng(state: 67)
        let pieces = ["a", "B", "ΑΣ", "Σ", "ς", "İ", "I", "\u{212A}", "ẞ", "ß", "ǅ", "É", "e\u{301}", "Ω", "\u{2126}", "日",
                      "😀", "_", "-", " ", "\u{10400}", "ＡＢ"]
        for _ in 0..<2000 {
            let text = (0..<rng.below(12)).map { _ in rng.pick(pieces) }.joined()
            let lowered = Array(text.lowercased().unicodeScalars)
            #expect(Array(IteratorSequence(Suggest.Lowered(text))) == lowered, "\(text.debugDescription)")
            for limit in [0, 1, 3, 64] {
                #expect(Suggest.lowercasedScalars(text, upTo: limit) == Array(lowered.prefix(limit)), "\(text.debugDescription) \(limit)")
            }
        }
    }

    /// The facts `forParts` stands on, from Unicode's tables: of the scalars past ASCII, only İ
    /// and the Kelvin sign lower to anything with ASCII in it, and only İ to more than one scalar.
    @Test func onlyTwoScalarsPastASCIILowerToASCII() {
        var toASCII: [UInt32] = [], expanding: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let lowered = scalar.properties.lowercaseMapping.unicodeScalars
            if lowered.contains(where: \.isASCII) { toASCII.append(value) }
            if lowered.count != 1 { expanding.append(value) }
        }
        #expect(toASCII == [0x130, 0x212A])
        #expect(expanding == [0x130])
    }

    /// `byParts` answers as lowering every word whole and comparing scalars does, for words past
    /// ASCII among ASCII candidates (where it leaves most scalars unlowered) and among others.
    @Test func byPartsAnswersAsLoweringWhole() {
        func reference(_ word: String, in candidates: [String]) -> String? {
            let w = Array(word.lowercased().unicodeScalars)
            guard w.count >= 3 else { return nil }
            var best: (candidate: String, score: Int)?
            var tied = false
            for c in candidates {
                let lc = Array(c.lowercased().unicodeScalars)
                guard lc.count >= 3, lc != w else { continue }
                let shared = min(lc.count, w.count)
                func occurs(_ n: [Unicode.Scalar], _ h: [Unicode.Scalar]) -> Bool {
                    n.count <= h.count && (0...(h.count - n.count)).contains { h[$0..<($0 + n.count)].elementsEqual(n) }
                }
                let score: Int
                if w.starts(with: lc) || lc.starts(with: w) { score = 2 * shared + 1 }
                else if occurs(lc, w) || occurs(w, lc) { score = 2 * shared }
                else { continue }
                if best == nil || score > best!.score { best = (c, score); tied = false }
                else if score == best!.score { tied = true }
            }
            return tied ? nil : best?.candidate
        }
        var rng = Rng(state: 71)
        let pieces = ["retry", "On", "TIME", "out", "\u{212A}", "İ", "ı", "É", "é", "Σ", "日", "_", "ms", "jitter", "Max", "i\u{307}",
                      "\u{212A}ind", "ind", "d"]
        let sets = [Language.retry.map(\.key), Language.profile.map(\.key), ["kind", "maxJitter", "honor"], ["İd", "kİnd", "tİme", "Éclair"]]
        var found = 0
        for _ in 0..<3000 {
            let word = (0..<rng.below(6)).map { _ in rng.pick(pieces) }.joined()
            for set in sets {
                let answer = Suggest.byParts(word, in: set)
                #expect(answer == reference(word, in: set), "\(word.debugDescription) in \(set)")
                if answer != nil { found += 1 }
            }
        }
        #expect(found > 150)
    }

    @Test func nearestAnswersAsComputingEveryDistance() {
        let candidates = Language.root.map(\.key) + ["maxRetries", "retryOn", "network", "a", "ab"]
        var rng = Rng(state: 61)
        var words = candidates + ["max_retries", "MAX-RETRIES", "maxRetry", String(repeating: "maxRetries", count: 20), "x", "",
                                  // Non-ASCII: lowered by Unicode, not by bytes (İ lowers to two scalars).
                                  "MAXRETRİES", "İ", "maxRétries", "max_rétries", "ß", "NETWORK\u{301}", "net work\u{308}", "ＮＥＴＷＯＲＫ",
                                  // Too far to be typos, the same once squashed.
                                  "m a x r e t r i e s", "M_A_X-R_E_T_R_I_E_S", "N E T W O R K", "n-e-t-w-o-r-Z", "N_E_T_W_O_R_K_Z", "ZA", "@[`{", "@@@@@@"]
        for _ in 0..<3000 {
            let base = rng.pick(candidates)
            var w = Array(base)
            for _ in 0..<rng.below(4) where !w.isEmpty {
                let i = rng.below(w.count)
                switch rng.below(3) {
                case 0: w.remove(at: i)
                case 1: w.insert(rng.pick(Array("abz_- ")), at: i)
                default: w[i] = rng.pick(Array("xyzQZA@[_Éİé"))
                }
            }
            if rng.below(10) == 0 { w += Array(repeating: "k", count: rng.below(90)) }
            words.append(String(w))
        }
        var found = 0
        for word in words {
            for set in [candidates, ["network"], ["a"], [], ["Network", "maxRétries", "max-retries", "İd", "networkz", "za", "@[`{", "``````"]] {
                let answer = Suggest.nearest(word, in: set)
                #expect(answer == Self.reference(word, in: set), "\(word) in \(set)")
                if answer != nil { found += 1 }
            }
        }
        #expect(found > 1000)
    }
}
