import Testing

@testable import AASAServer

@Suite("Log line queue")
struct LogLineQueueTests {
    static func line(_ number: Int) -> String { "line \(number)\n" }

    @Test func keepsLinesInOrderUntilFullThenDropsAndCounts() {
        let cost = Self.line(0).utf8.count + LogLineQueue.overhead
        var queue = LogLineQueue(capacity: cost * 3)
        let kept = (0..<5).map { queue.append(Self.line($0)) }
        #expect(kept == [true, true, true, false, false])
        #expect(queue.size == cost * 3)
        let taken = queue.takeAll()
        #expect(taken.lines == (0..<3).map(Self.line))
        #expect(taken.dropped == 2)
    }

    @Test func takingEverythingMakesRoomAndResetsTheDropCount() {
        let cost = Self.line(0).utf8.count + LogLineQueue.overhead
        var queue = LogLineQueue(capacity: cost)
        queue.append(Self.line(0))
        queue.append(Self.line(1))
        _ = queue.takeAll()
        #expect(queue.isEmpty)
        #expect(queue.size == 0)
        let kept = queue.append(Self.line(2))
        #expect(kept)
        let taken = queue.takeAll()
        #expect(taken.lines == [Self.line(2)])
        #expect(taken.dropped == 0)
    }

    /// Many empty lines are bounded too: each costs its overhead.
    @Test func emptyLinesCostTheirOverhead() {
        var queue = LogLineQueue(capacity: LogLineQueue.overhead * 10)
        for _ in 0..<100 { queue.append("") }
        let taken = queue.takeAll()
        #expect(taken.lines.count == 10)
        #expect(taken.dropped == 90)
    }

    @Test func aDropAloneMakesTheQueueNonEmpty() {
        var queue = LogLineQueue(capacity: 0)
        queue.append("x\n")
        #expect(!queue.isEmpty)
    }
}
