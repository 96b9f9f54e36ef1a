import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Uses the API that the policyc plugin generated from playback.yaml during this build.
func check(_ condition: Bool, _ what: String) {
    if !condition {
        print("FAILED: \(what)")
        exit(1)
    }
}

let interactive = PlaybackPolicy.interactive
check(interactive.maxRetries == 3, "interactive retries")
check(PlaybackPolicy.isRetryable(status: nil, errorCode: nil), "network errors are retried")
check(!PlaybackPolicy.isRetryable(status: 503, errorCode: "not_ready"), "503 not_ready is never retried")
check(PlaybackPolicy.backoffMs(attempt: 2, retryAfterS: nil, profile: interactive, random: { 0.5 }) == 1000,
      "full jitter under the cap")

nonisolated(unsafe) var clock: Int64 = 0
let budget = PlaybackPolicy.RetryBudget(now: { clock })
var granted = 0
for _ in 0..<20 where budget.tryRetry() { granted += 1 }
check(granted == 10, "at least 10 retries a minute, got \(granted)")
print("SwiftConsumer: ok (budget ratio \(PlaybackPolicy.budgetRatio))")

// The guide's retry loop over real HTTP: `callWithRetries` makes the attempts of one ticket call
// against a small local server that is busy once (503, Retry-After: 0), then answers with a
// ticket and a paused prefetch, which `itemsToRetry` leaves alone.
let server = TicketServer()
let outcome = await PlaybackPolicy.callWithRetries(
    profile: interactive, budget: PlaybackPolicy.RetryBudget(), random: { 0 }
) { _, timeoutMs in
    guard let answer = post(to: server.port, timeoutMs: timeoutMs) else { return .init(status: nil) }
    let code = ((answer.json["error"] as? [String: Any])?["code"]) as? String
    return .init(status: answer.status, errorCode: code, retryAfter: answer.retryAfter)
}
check(outcome.reason == .succeeded && outcome.attempts == 2, "one retry after the 503: \(outcome)")
check(outcome.waitsMs == [0], "Retry-After: 0 and no jitter drawn: \(outcome.waitsMs)")
let items = (post(to: server.port, timeoutMs: 8_000)?.json["items"] as? [[String: Any]] ?? []).map { item in
    PlaybackPolicy.TicketItem(intent: item["intent"] as? String == "play" ? .play : .prefetch,
                              status: item["status"] as? Int,
                              errorCode: (item["error"] as? [String: Any])?["code"] as? String)
}
check(items.count == 2 && PlaybackPolicy.itemsToRetry(items).items.isEmpty, "a refused prefetch is not asked again")
print("SwiftConsumer: callWithRetries over HTTP: \(outcome.reason.rawValue) after \(outcome.attempts) attempts")

/// What one POST to the local server got back.
struct Answer {
    var status: Int
    var retryAfter: String?
    var json: [String: Any]
}

/// POST /v1/tickets with the attempt's timeout; nil when no answer came in time (a network error).
func post(to port: UInt16, timeoutMs: Int) -> Answer? {
    let fd = socket(AF_INET, streamSocket(), 0)
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: (timeoutMs % 1000) * 1000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    let body = #"{"episodes":[{"film_ref":"the-heiress-returns","episode_no":1,"intent":"play"},{"film_ref":"the-heiress-returns","episode_no":2,"intent":"prefetch"}],"viewer_ref":"Qm9vS2Vy:7f3a"}"#
    send(fd, "POST /v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    guard let response = receive(fd) else { return nil }
    let parts = response.components(separatedBy: "\r\n\r\n")
    let head = parts[0].components(separatedBy: "\r\n")
    guard let status = head.first.flatMap({ Int($0.split(separator: " ").dropFirst().first ?? "") }) else { return nil }
    let retryAfter = head.first { $0.lowercased().hasPrefix("retry-after:") }
        .map { String($0.dropFirst("retry-after:".count)).trimmingCharacters(in: .whitespaces) }
    let json = (try? JSONSerialization.jsonObject(with: Data(parts.dropFirst().joined().utf8))) as? [String: Any] ?? [:]
    return Answer(status: status, retryAfter: retryAfter, json: json)
}

/// SOCK_STREAM as `socket` takes it (an enum case in Glibc, a number in Darwin).
func streamSocket() -> Int32 {
    #if canImport(Glibc)
    Int32(SOCK_STREAM.rawValue)
    #else
    SOCK_STREAM
    #endif
}

/// 127.0.0.1 at `port`.
func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

func send(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        offset += n
    }
}

/// Reads until the peer closes, or with `request` until a whole HTTP request (its head and its
/// Content-Length of body) is in; nil on a timeout.
func receive(_ fd: Int32, request: Bool = false) -> String? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return nil }
        if n == 0 { break }
        bytes += buffer[..<n]
        let text = String(decoding: bytes, as: UTF8.self)
        if request, let end = text.range(of: "\r\n\r\n") {
            let length = text[..<end.lowerBound].components(separatedBy: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text[end.upperBound...].utf8.count >= length { break }
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A ticket server on 127.0.0.1, on a port the system picks: its first answer is 503 with
/// Retry-After: 0, every later one 200 with a ticket for the episode and a paused prefetch.
final class TicketServer: Sendable {
    let port: UInt16

    init() {
        let listener = socket(AF_INET, streamSocket(), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(listener, $0, length)
                _ = getsockname(listener, $0, &length)
            }
        }
        listen(listener, 8)
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            var served = 0
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                served += 1
                _ = receive(client, request: true)
                let busy = served == 1
                let body = busy ? #"{"error":{"code":"unavailable"}}"#
                    : #"{"items":[{"intent":"play","status":200,"ticket":"tk_1"},{"intent":"prefetch","status":429,"error":{"code":"prefetch_paused"}}]}"#
                send(client, (busy ? "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\n" : "HTTP/1.1 200 OK\r\n")
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
                close(client)
            }
        }
    }
}
