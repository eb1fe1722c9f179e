/// Identity of one version of a file: a poll skips re-reading a file whose
/// stamp is unchanged. The inode catches a replacement by rename, the change
/// time an in-place rewrite within the same second and size.
struct FileStamp: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    init(device: UInt64, inode: UInt64, size: Int, modifiedNanoseconds: Int64, changedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
    }
}
