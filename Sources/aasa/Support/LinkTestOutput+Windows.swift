extension LinkTestOutput {
    /// Renders and writes the `count` results window by window, in order; `false`
    /// when `write` asked to stop, and then no further window is rendered.
    func writeWindows(count: Int, to write: ([UInt8]) -> Bool, render: (Range<Int>) -> [[UInt8]]) -> Bool {
        for start in stride(from: 0, to: count, by: Self.window) {
            for part in render(start..<min(start + Self.window, count)) {
                guard write(part) else { return false }
            }
        }
        return true
    }
}
