import Testing

@testable import AASAServer

@Suite("Request counts")
struct RequestCountTests {
    @Test func countsSurviveReloadsAndRenderAsPrometheusText() {
        let table = RequestCountTable()
        table.counts(for: "a.example").increment(.ok)
        // A reload asks again for the same host: same counts, not a reset.
        table.counts(for: "a.example").increment(.ok)
        table.counts(for: "unknown").increment(.notFound)
        let text = table.render()
        #expect(text.hasPrefix("# TYPE aasa_requests_total counter\n"))
        #expect(text.contains("aasa_requests_total{host=\"a.example\",status=\"200\"} 2\n"))
        #expect(text.contains("aasa_requests_total{host=\"unknown\",status=\"404\"} 1\n"))
        #expect(!text.contains("status=\"304\""))
    }

    @Test func everyStatusHasItsOwnCounter() {
        let counts = RequestCounts()
        for (times, status) in EncodedResponse.Status.allCases.enumerated() {
            for _ in 0...times { counts.increment(status) }
        }
        #expect(EncodedResponse.Status.allCases.map(counts.value) == Array(1...EncodedResponse.Status.allCases.count))
    }

    @Test func everyStatusLineNamesItsCode() {
        for status in EncodedResponse.Status.allCases {
            #expect("\(status.statusLine)".hasPrefix("HTTP/1.1 \(status.rawValue) "))
            #expect("\(status.statusLine)".hasSuffix("\r\n"))
        }
    }
}
