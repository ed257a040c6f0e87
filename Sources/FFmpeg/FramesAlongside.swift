/// Frames another job takes from a pass over a video that one job makes (an ingest's preview from
/// its storyboard's pass; its storyboard, preview and poster from its web video's), so that a
/// frame several need is decoded once.
public struct FramesAlongside {
    /// The times it needs (ascending), asked once the video is open.
    public var times: (_ video: VideoSource) throws -> [Double]
    /// Each frame found for one of them, in order, with its index among them.
    public var take: (_ found: VideoSource.FrameForTime, _ video: VideoSource) throws -> Void

    public init(times: @escaping (_ video: VideoSource) throws -> [Double],
                take: @escaping (_ found: VideoSource.FrameForTime, _ video: VideoSource) throws -> Void) {
        self.times = times
        self.take = take
    }
}
