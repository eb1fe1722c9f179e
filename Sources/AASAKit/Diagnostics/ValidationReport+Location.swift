extension ValidationReport {
    /// The same report with every finding placed at the line and column of
    /// its JSON path in `bytes`, the text that was validated.
    ///
    /// A path with no value in the text (a missing member) points at its
    /// nearest enclosing value. A text that is not JSON gives its `json.syntax`
    /// finding the position where parsing stopped. A text over
    /// ``AASAValidator/maximumFileSize`` is not parsed at all (its one finding
    /// is about the whole file), and findings that already have a position
    /// keep it.
    ///
    /// Validators leave this step to callers that print positions (the
    /// origin's reload path does not need them and does not pay for them):
    ///
    /// ```swift
    /// let report = AASAValidator().validate(bytes: bytes, file: path).locating(in: bytes)
    /// ```
    public func locating(in bytes: [UInt8]) -> ValidationReport {
        guard diagnostics.contains(where: { $0.position == nil }), bytes.count <= AASAValidator.maximumFileSize
        else { return self }
        var located = self
        do {
            let map = try JSONSourceMap(bytes: bytes)
            located.diagnostics = diagnostics.map {
                $0.position == nil ? $0.located(at: map.position(of: $0.path)) : $0
            }
        } catch {
            located.diagnostics = diagnostics.map { diagnostic in
                guard diagnostic.position == nil, diagnostic.code == Self.syntaxCode else { return diagnostic }
                return diagnostic.located(at: error.position)
            }
        }
        return located
    }

    /// The code of the finding for a text that is not JSON.
    static let syntaxCode = "json.syntax"
}
