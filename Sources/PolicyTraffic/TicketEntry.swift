import PolicySource

/// An episode asked for: the key a retry and a reused ticket are matched by.
public struct Ask: Sendable, Hashable {
    public var film: String
    public var episode: Int
    public var intent: String

    public var isPlay: Bool { intent == "play" }
    public var isPrefetch: Bool { intent == "prefetch" }
    /// `the-heiress-returns 4 play`.
    public var words: String { "\(film) \(episode) \(intent)" }
}

/// What the answer said about one item: its status (nil: a network failure), its error code,
/// the Retry-After in milliseconds (the item's `retry_after`, else the header), when its ticket
/// expires, and whether the item was refused on its own in an answer that was otherwise given.
public struct Outcome: Sendable, Hashable {
    public var status: Int?
    public var code: String?
    public var retryAfterMs: Int?
    public var expiresAtMs: Int?
    public var itemRefused = false

    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
    public var words: String {
        guard let status else { return "a network failure" }
        return String(status) + (code.map { " \($0)" } ?? "")
    }
}

/// One ticket request of a recording: who asked, what, when and what came back.
public struct TicketEntry: Sendable, Hashable {
    /// The index in `log.entries`.
    public var index: Int
    /// Where the entry starts in the file (line, column).
    public var mark: Mark
    public var url: String
    /// `startedDateTime`, in milliseconds since 1970; `time`, the whole exchange, in milliseconds.
    public var startMs: Int
    public var durationMs: Int
    public var device: String
    public var viewer: String
    public var asks: [Ask]
    public var outcomes: [Outcome]
    /// The recorder's error text for a network failure (`_error`), when it gave one.
    public var networkError: String?

    public var endMs: Int { startMs + durationMs }
    public var isNetworkFailure: Bool { outcomes.first.map { $0.status == nil } ?? false }
}

/// An entry → a ticket request, or nil for any other traffic. Tolerant, as the guide asks: unknown
/// fields are ignored and an entry that is no ticket request is skipped; `endpoint` (a path glob)
/// picks ticket requests by URL, else any POST whose JSON body has an `episodes` list does.
enum TicketReader {
    /// A ticket request, nil for other traffic; a ticket request whose time or status has the
    /// wrong type is an error (its reason), never a guess.
    static func read(_ entry: JSON, index: Int, mark: Mark, endpoint: String?) -> Result<TicketEntry?, Invalid> {
        guard let request = entry["request"], let method = request["method"]?.string, method.uppercased() == "POST",
              let url = request["url"]?.string else { return .success(nil) }
        if let endpoint, !Glob.matches(endpoint, path(of: url)) { return .success(nil) }
        guard let body = request["postData"]?["text"]?.string.flatMap(parsed),
              case .array(let episodes)? = body["episodes"] else { return .success(nil) }
        guard let started = entry["startedDateTime"]?.string.flatMap(ISOTime.milliseconds) else {
            return .failure(Invalid(message: "entry \(index) is a ticket request whose startedDateTime is not an ISO 8601 time"))
        }
        guard entry["time"] == nil || entry["time"]?.number != nil else {
            return .failure(Invalid(message: "entry \(index) is a ticket request whose time is not a number of milliseconds"))
        }
        guard let response = entry["response"], case .object = response, response["status"]?.number != nil else {
            return .failure(Invalid(message: "entry \(index) is a ticket request without a response whose status is a number"))
        }
        return .success(ticket(entry, body: body, asks: episodes.compactMap(ask), index: index, mark: mark, url: url, started: started))
    }

    struct Invalid: Error {
        var message: String
    }

    static func ticket(_ entry: JSON, body: JSON, asks: [Ask], index: Int, mark: Mark, url: String, started: Int) -> TicketEntry {
        let duration = max(0, Int(entry["time"]?.number ?? 0))
        var ticket = TicketEntry(index: index, mark: mark, url: url, startMs: started, durationMs: duration,
                                 device: body["union_info"]?.string ?? "", viewer: body["viewer_ref"]?.string ?? "",
                                 asks: asks, outcomes: [], networkError: nil)
        let response = entry["response"]
        let status = Int(response?["status"]?.number ?? 0)
        let error = entry["_error"]?.string ?? response?["_error"]?.string ?? response?["error"]?.string
        if status <= 0 || error != nil {
            ticket.networkError = error ?? ""
            ticket.outcomes = asks.map { _ in Outcome(status: nil) }
            return ticket
        }
        let headerRetryAfter = response?["headers"].flatMap { header("retry-after", in: $0) }
            .flatMap { RetryAfter.milliseconds($0, nowMs: ticket.endMs) }
        let answer = response?["content"].flatMap(contentJSON)
        ticket.outcomes = outcomes(for: asks, status: status, answer: answer, retryAfter: headerRetryAfter)
        return ticket
    }

    static func ask(_ item: JSON) -> Ask? {
        guard let film = item["film_ref"]?.string, let episode = item["episode_no"]?.number else { return nil }
        return Ask(film: film, episode: Int(episode), intent: item["intent"]?.string ?? "play")
    }

    /// Each asked item's outcome: a failed answer fails them all; a given one says per item,
    /// found under the first list of objects with a `status` (by film and episode, else in order).
    static func outcomes(for asks: [Ask], status: Int, answer: JSON?, retryAfter: Int?) -> [Outcome] {
        let code = answer.flatMap(errorCode)
        let whole = Outcome(status: status, code: code, retryAfterMs: answer?["retry_after"].flatMap(retryAfterValue) ?? retryAfter)
        guard (200..<300).contains(status) else { return asks.map { _ in whole } }
        let items = answer.flatMap(itemList) ?? []
        return asks.enumerated().map { n, ask in
            let item = items.first { $0["film_ref"]?.string == ask.film && $0["episode_no"]?.number.map(Int.init) == ask.episode }
                ?? (n < items.count && items[n]["film_ref"] == nil ? items[n] : nil)
            guard let item else { return whole }
            let itemStatus = Int(item["status"]?.number ?? Double(status))
            return Outcome(status: itemStatus, code: errorCode(item),
                           retryAfterMs: item["retry_after"].flatMap(retryAfterValue) ?? retryAfter,
                           expiresAtMs: item["expires_at"].flatMap(expiry),
                           itemRefused: !(200..<300).contains(itemStatus))
        }
    }

    /// The first list (depth first) whose items are objects with a `status`.
    static func itemList(_ value: JSON) -> [JSON]? {
        var stack = [value]
        while let next = stack.popLast() {
            switch next {
            case .array(let items):
                if !items.isEmpty, items.allSatisfy({ $0["status"]?.number != nil }) { return items }
                stack += items.reversed()
            case .object(let members):
                stack += members.keys.sorted().reversed().compactMap { members[$0] }
            default: continue
            }
        }
        return nil
    }

    static func errorCode(_ value: JSON) -> String? {
        value["code"]?.string ?? value["error"]?.string ?? value["error"]?["code"]?.string ?? value["error_code"]?.string
    }

    static func retryAfterValue(_ value: JSON) -> Int? {
        if let n = value.number { return n >= 0 ? Int(n * 1000) : nil }
        return value.string.flatMap { RetryAfter.milliseconds($0, nowMs: nil) }
    }

    /// `expires_at` as an ISO time, or seconds (or milliseconds) since 1970.
    static func expiry(_ value: JSON) -> Int? {
        if let n = value.number { return n > 1e11 ? Int(n) : Int(n * 1000) }
        return value.string.flatMap(ISOTime.milliseconds)
    }

    static func header(_ name: String, in headers: JSON) -> String? {
        guard case .array(let list) = headers else { return nil }
        return list.first { $0["name"]?.string?.lowercased() == name }?["value"]?.string
    }

    /// The answer's body as JSON: HAR's `content.text`, base64 when `encoding` says so.
    static func contentJSON(_ content: JSON) -> JSON? {
        guard let text = content["text"]?.string else { return nil }
        if content["encoding"]?.string == "base64" {
            return Base64.decode(text).flatMap { if case .success(let v) = JSONParser.parse($0) { return v } else { return nil } }
        }
        return parsed(text)
    }

    static func parsed(_ text: String) -> JSON? {
        if case .success(let value) = JSONParser.parse(text) { return value }
        return nil
    }

    /// The URL's path: `https://api.wandura.com/v1/tickets?x=1` → `/v1/tickets`.
    static func path(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        else { return String(url.prefix { $0 != "?" && $0 != "#" }) }
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }
}

extension JSON {
    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var number: Double? {
        switch self {
        case .int(let n): return Double(n)
        case .double(let d): return d
        default: return nil
        }
    }
}
