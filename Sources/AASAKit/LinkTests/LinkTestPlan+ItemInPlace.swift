extension LinkTestPlan {
    /// An item seen as noncopyable, so that passing it on through its
    /// pointer borrows it where it lies. A copyable item read through the
    /// pointer was copied for a call that takes its URL (the callee could
    /// not be shown to leave the memory alone): a retain and a release of
    /// the URL's host and of the links file's source per URL, from every
    /// core. One stored property: laid out as the item.
    ///
    /// A field is borrowed only when passed on as an argument of a function
    /// that is not inlined; bound to a name, or inlined, it is copied again.
    struct ItemInPlace: ~Copyable {
        let item: Item
    }
}

extension UnsafePointer where Pointee == LinkTestPlan.Item {
    /// `body` of the item, borrowed in place (``LinkTestPlan/ItemInPlace``).
    func withItemInPlace<Result>(_ body: (borrowing LinkTestPlan.ItemInPlace) -> Result) -> Result {
        withMemoryRebound(to: LinkTestPlan.ItemInPlace.self, capacity: 1) { body($0.pointee) }
    }
}
