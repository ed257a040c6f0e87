# frozen_string_literal: true

# scripts/realworld activestorage: every video and picture of the corpus (paths on standard input,
# one a line) uploaded to the Active Storage gem's test app and analysed as Rails does it, its
# width and height held to vips's (pictures, their orientation applied) or, for what vips does not
# read, ffprobe's (videos, the display matrix and pixel aspect applied); Rails' own VideoAnalyzer is run on the same videos
# and its misses counted, to show the difference. One line a file: path, status, cause.
root = File.expand_path("..", __dir__)
$LOAD_PATH.unshift(File.join(root, "Integrations/activestorage-mediatool/lib"))
require File.join(root, "Integrations/activestorage-mediatool/test/app")
require File.join(root, "Integrations/activestorage-mediatool/test/references")
at_exit { FileUtils.remove_entry(STORAGE, true) }

ActiveStorage::Mediatool.settings = ActiveStorage::Mediatool::Settings.new(timeout: 60)
rails_misses = 0
videos = 0
$stdin.each_line(chomp: true) do |path|
  blob = File.open(path, "rb") { |file| ActiveStorage::Blob.create_and_upload!(io: file, filename: File.basename(path)) }
  analyzer = ActiveStorage.analyzers.detect { |candidate| candidate.accept?(blob) }
  unless analyzer == ActiveStorage::Mediatool::Analyzer
    puts JSON.generate(path: path, status: "passed over", cause: "#{blob.content_type} is not the gem's")
    next
  end
  mark = LOG.string.size
  blob.analyze
  ours = [blob.metadata[:width], blob.metadata[:height]]
  unread = LOG.string[mark..][/mediatool could not read .*?: (.*?);/, 1]
  # By what the file is, not its content type (Marcel 1.0 takes AVIF photos for QuickTime videos).
  reference = (References.vips_shown_size(path) rescue nil) || References.ffprobe_shown_size(path)
  if blob.video? && reference
    videos += 1
    theirs = ActiveStorage::Analyzer::VideoAnalyzer.new(blob).metadata rescue {}
    rails_misses += 1 unless [theirs[:width]&.round, theirs[:height]&.round] == reference
  end
  cause =
    if reference.nil?
      ours.compact.empty? ? nil : "the reference reads no size, the gem #{ours.join("x")}"
    elsif unread
      "mediatool cannot read it (#{unread}): Rails' own analyzer says #{ours.map(&:inspect).join("x")}, the reference #{reference.join("x")}"
    elsif ours != reference
      "the gem says #{ours.map(&:inspect).join("x")}, the reference #{reference.join("x")}"
    end
  puts JSON.generate(path: path, status: cause ? "failed" : "passed", cause: cause)
ensure
  blob&.purge
end
warn "realworld: Rails' own VideoAnalyzer measured #{rails_misses} of #{videos} videos otherwise than ffprobe shows them"
ActiveStorage::Mediatool.stop
