extension String {
    /// Calls `body` with the string's UTF-8: lent in place when the string
    /// is native or small (the usual case), copied into an array otherwise.
    /// Unlike `withUTF8`, it needs no `var` copy of the string, which costs
    /// a retain and a release per call.
    func withLentUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let lent = utf8.withContiguousStorageIfAvailable(body) { return lent }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
