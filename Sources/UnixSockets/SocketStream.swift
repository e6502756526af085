import Glibc

/// Whole-buffer reads and writes on a connected stream socket, bounded in time: a peer that
/// stalls mid-message ends the exchange instead of holding the reader.
public enum SocketStream {
    /// Sends every byte of `buffer`; false when the peer is gone (never SIGPIPE).
    public static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    public static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { send(fd, $0) } }

    /// Fills `buffer` from `fd` before `deadline`; false at end of stream or past the deadline.
    public static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ deadline: Deadline) -> Bool {
        var offset = 0
        while offset < buffer.count {
            guard let left = deadline.millisecondsLeft else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let n = recv(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_DONTWAIT))
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Waits until `fd` has something to read (or its peer hung up) for at most `milliseconds`;
    /// whether it has.
    public static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }
}
