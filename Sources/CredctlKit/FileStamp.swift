import Glibc

/// A file's identity, size and change time, or its absence: two equal stamps taken apart say
/// nothing was written to it in between (SQLite writes change a database or its log).
///
/// An empty file's times are left out: SQLite truncates an empty write-ahead log again each time
/// its last connection closes, which changes the times of a file nothing was written to. A
/// write lands in the log, and a checkpoint that empties the log writes the database.
struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let changed: Int?
    let changedNanoseconds: Int

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            (device, inode, size, changed, changedNanoseconds) = (0, 0, -1, nil, 0)
            return
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changed = size > 0 ? Int(info.st_ctim.tv_sec) : nil
        changedNanoseconds = size > 0 ? Int(info.st_ctim.tv_nsec) : 0
    }
}
