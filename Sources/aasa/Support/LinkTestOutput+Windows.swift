import Dispatch

extension LinkTestOutput {
    /// A window's parts, as `render` gives them.
    typealias WindowRender = @Sendable (Range<Int>) -> [[UInt8]]

    /// Renders and writes the results window by window, in order; `false`
    /// when `write` asked to stop, and then no window after the one already
    /// rendering is rendered.
    ///
    /// Each window after the first is rendered while the one before it is
    /// written: writing waits on the reader of stdout (a pipe holds 64 KiB),
    /// rendering on the cores, and one after the other the run waited for
    /// each in turn.
    func writeWindows(to write: ([UInt8]) -> Bool, render: @escaping WindowRender) -> Bool {
        let count = report.resultCount
        let windows = stride(from: 0, to: count, by: Self.window).map { $0..<min($0 + Self.window, count) }
        guard let first = windows.first else { return true }
        var parts = render(first)
        for next in windows.dropFirst().map(Optional.some) + [nil] {
            let ahead = next.map { RenderAhead(render, $0) }
            for part in parts {
                guard write(part) else {
                    _ = ahead?.parts()
                    return false
                }
            }
            guard let ahead else { break }
            parts = ahead.parts()
        }
        return true
    }
}

/// One window rendered on another thread, its parts handed over once done.
private final class RenderAhead: @unchecked Sendable {
    // Unchecked Sendable: `rendered` is written once by the rendering block
    // before it signals `done`, and read only after waiting for `done`.
    private var rendered: [[UInt8]] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ render: @escaping LinkTestOutput.WindowRender, _ window: Range<Int>) {
        DispatchQueue.global().async { [self] in
            rendered = render(window)
            done.signal()
        }
    }

    /// The window's parts, once rendered.
    func parts() -> [[UInt8]] {
        done.wait()
        return rendered
    }
}
