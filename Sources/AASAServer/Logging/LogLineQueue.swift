/// The lines waiting for the log writer, in the order they were logged,
/// bounded in bytes: a line that would take the queue past its capacity
/// is dropped and counted, never waited for, so a logger on an event loop
/// never blocks on a slow or stuck reader of the log.
public struct LogLineQueue: Sendable {
    /// Bytes the queue may hold: the lines' UTF-8 plus `overhead` per line
    /// (a `String` and its slot in the array), so many short lines are
    /// bounded too.
    public let capacity: Int
    public static let overhead = 32

    private(set) var lines: [String] = []
    /// Bytes held now, counted as `capacity` counts them.
    public private(set) var size = 0
    /// Lines dropped since the last `takeAll()`.
    public private(set) var dropped = 0

    public init(capacity: Int) {
        self.capacity = capacity
    }

    public var isEmpty: Bool { lines.isEmpty && dropped == 0 }

    /// Appends `line`, or drops and counts it when there is no room.
    /// - Returns: whether the line was kept.
    @discardableResult
    public mutating func append(_ line: String) -> Bool {
        let cost = line.utf8.count + Self.overhead
        guard size + cost <= capacity else {
            dropped += 1
            return false
        }
        lines.append(line)
        size += cost
        return true
    }

    /// Everything queued, oldest first, and how many lines were dropped
    /// since the previous call; the queue is empty afterwards.
    public mutating func takeAll() -> (lines: [String], dropped: Int) {
        defer {
            lines = []
            size = 0
            dropped = 0
        }
        return (lines, dropped)
    }
}
