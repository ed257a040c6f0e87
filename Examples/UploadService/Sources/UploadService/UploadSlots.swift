import Synchronization

/// Uploads being received at once, in all and for each client (by address). Each may write up to
/// the largest upload to disk, so the count in all bounds the disk a crowd of stalled clients can
/// hold; the count a client bounds what one client can take of it: a client that holds its slots
/// with bodies that trickle in leaves the others' slots free.
enum UploadSlots {
    static let mostInAll = 16
    static let mostForOneClient = 4

    private static let counts = ClientCounts(mostInAll: mostInAll, mostForOneClient: mostForOneClient)

    /// Why `client` has no slot now, or nil when it has one, which it must `leave` when done.
    static func enter(client: String) -> String? {
        switch counts.enter(client) {
        case .client?: "\(mostForOneClient) uploads of yours are under way: try again when one is done"
        case .all?: "\(mostInAll) uploads are under way: try again shortly"
        case nil: nil
        }
    }

    static func leave(client: String) {
        counts.leave(client)
    }
}
