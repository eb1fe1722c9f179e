/// Warns when a file is close to the size past which the system rejects it
/// (§7), so growth is noticed before every link breaks at once.
struct SizeLint: LintRule {
    /// 90% of the cap: within 10% of it.
    static let warningThreshold = AASAValidator.maximumFileSize * 9 / 10

    func diagnostics(in context: LintContext) -> [Diagnostic] {
        guard context.byteCount >= Self.warningThreshold, context.byteCount <= AASAValidator.maximumFileSize
        else { return [] }
        return [
            .warning(
                "lint.file-size-near-limit",
                at: .root,
                """
                the file is \(AASAValidator.groupedDigits(context.byteCount)) bytes, within 10% of the \
                \(AASAValidator.groupedDigits(AASAValidator.maximumFileSize))-byte limit; \
                past it the system ignores the whole file and no link opens the app
                """
            )
        ]
    }
}
