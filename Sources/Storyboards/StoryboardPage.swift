import JSON
import FileIO

/// A self-contained HTML page that shows a storyboard at work, as a video site would: the video,
/// the WebVTT file as its thumbnail track, and a seek bar that previews the cell of the time under
/// the pointer. `page.html?t=12.5` shows the preview for 12.5 s at the top left, pointer or not.
/// No external script, style or font: the cues are in the page too (a page opened from disk may not
/// fetch the WebVTT file).
public struct StoryboardPage: Sendable {
    public let title: String
    /// URLs relative to the page (or absolute).
    public let videoURL: String
    public let vttURL: String
    /// The WebVTT file's text: the track is loaded from it (a page opened from disk may not fetch
    /// the file, a 'file:' URL being an origin of its own).
    public let vttText: String
    public let cues: [WebVTT.Cue]
    public let duration: Double

    public init(title: String, videoURL: String, vttURL: String, vttText: String, cues: [WebVTT.Cue], duration: Double) {
        self.title = title
        self.videoURL = videoURL
        self.vttURL = vttURL
        self.vttText = vttText
        self.cues = cues
        self.duration = duration
    }

    public var html: String {
        let cueArray = JSONValue.array(cues.map { cue in
            let rect = cue.rect ?? (0, 0, 0, 0)
            return .array([.double(cue.start), .double(cue.end), .string(cue.url), .int(rect.x), .int(rect.y),
                           .int(rect.width), .int(rect.height)])
        }).text.replacingEvery("</", with: "<\\/")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Self.escaped(title))</title>
            <style>
            body { margin: 0; background: #181818; color: #eee; font: 14px sans-serif; }
            #preview { position: absolute; left: 0; top: 0; display: none; background-repeat: no-repeat;
                       background-size: auto; image-rendering: pixelated; z-index: 2; }
            main { padding: 240px 16px 16px; max-width: 960px; }
            video { width: 100%; background: #000; display: block; }
            #seek { position: relative; height: 20px; margin-top: 8px; background: #444; cursor: pointer; }
            #played { position: absolute; left: 0; top: 0; bottom: 0; width: 0; background: #c33; }
            #label { height: 20px; margin-top: 4px; }
            </style>
            </head>
            <body>
            <div id="preview"></div>
            <main>
            <video id="video" src="\(Self.escaped(videoURL))" controls preload="metadata">
            <!-- The track is \(Self.escaped(vttURL)), held in the page. -->
            <track id="track" kind="metadata" label="thumbnails" src="data:text/vtt;charset=utf-8,\(WebVTT.urlPath(vttText))" default>
            </video>
            <div id="seek"><div id="played"></div></div>
            <div id="label"></div>
            </main>
            <script>
            "use strict";
            // [start, end, url, x, y, width, height] a cue, as in the WebVTT file.
            const cues = \(cueArray);
            const duration = \(JSONNumber.text(duration));
            const preview = document.getElementById("preview");
            const seek = document.getElementById("seek");
            const label = document.getElementById("label");
            const video = document.getElementById("video");

            function cueAt(time) {
              let low = 0, high = cues.length - 1;
              while (low <= high) {
                const middle = (low + high) >> 1;
                if (time < cues[middle][0]) high = middle - 1;
                else if (time >= cues[middle][1]) low = middle + 1;
                else return cues[middle];
              }
              return null;
            }

            function clock(time) {
              const minutes = Math.floor(time / 60), seconds = time - minutes * 60;
              return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(1);
            }

            function show(time, left, top) {
              const cue = cueAt(time);
              if (!cue) { preview.style.display = "none"; return; }
              const [, , url, x, y, width, height] = cue;
              preview.style.backgroundImage = 'url("' + url.replace(/"/g, '%22') + '")';
              preview.style.backgroundPosition = width ? -x + "px " + -y + "px" : "0 0";
              preview.style.width = (width || 160) + "px";
              preview.style.height = (height || 90) + "px";
              preview.style.backgroundSize = width ? "auto" : "contain";
              preview.style.left = left + "px";
              preview.style.top = top + "px";
              preview.style.display = "block";
              label.textContent = clock(time);
            }

            function timeAt(event) {
              const box = seek.getBoundingClientRect();
              return Math.min(duration, Math.max(0, (event.clientX - box.left) / box.width * duration));
            }

            seek.addEventListener("pointermove", event => {
              const box = seek.getBoundingClientRect();
              const cue = cueAt(timeAt(event));
              const width = cue && cue[5] ? cue[5] : 160, height = cue && cue[6] ? cue[6] : 90;
              show(timeAt(event), Math.max(0, event.clientX - width / 2), box.top + window.scrollY - height - 8);
            });
            seek.addEventListener("pointerleave", () => { preview.style.display = "none"; });
            seek.addEventListener("click", event => { video.currentTime = timeAt(event); });
            video.addEventListener("timeupdate", () => {
              document.getElementById("played").style.width = (video.currentTime / duration * 100) + "%";
            });

            // Says, for whoever checks the page, that the track loaded and how many cues it holds.
            const track = document.getElementById("track");
            track.track.mode = "hidden";
            track.addEventListener("load", () => { document.body.dataset.trackCues = track.track.cues.length; });

            const asked = new URLSearchParams(location.search).get("t");
            if (asked !== null && isFinite(parseFloat(asked))) show(parseFloat(asked), 0, 0);
            </script>
            </body>
            </html>

            """
    }

    /// Text safe inside HTML content and double-quoted attributes.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

extension StoryboardPage {
    /// `path` as a URL relative to `folder`: both made absolute and free of links first, each name
    /// percent-encoded. Nil when either folder cannot be resolved.
    public static func relativeURL(of path: String, from folder: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let pathFolder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let from = FileSystem.realPath(folder), let to = FileSystem.realPath(pathFolder) else { return nil }
        let fromParts = from.split(separator: "/")
        let toParts = to.split(separator: "/")
        let common = zip(fromParts, toParts).prefix { $0 == $1 }.count
        let up = Array(repeating: "..", count: fromParts.count - common)
        let down = toParts[common...].map { WebVTT.urlPath(String($0)) }
        return (up + down + [WebVTT.urlPath(name)]).joined(separator: "/")
    }
}
