# frozen_string_literal: true

require_relative "test_helper"

# The web video of an upload, made by `WebVideoJob` through Active Job and attached beside it:
# read back by ffprobe, never by mediatool.
class WebVideoTest < ActiveSupport::TestCase
  include BlobHelpers

  def upload_of(path)
    Upload.create!.tap { |upload| File.open(path, "rb") { |file| upload.video.attach(io: file, filename: File.basename(path)) } }
  end

  # ffprobe's streams of the attached file: codec, size and display matrix, and sound.
  def streams(attached)
    attached.blob.open do |file|
      output, status = Open3.capture2("ffprobe", "-v", "error", "-show_entries",
                                      "stream=codec_type,codec_name,profile,width,height,pix_fmt:stream_side_data=rotation",
                                      "-of", "json", file.path)
      raise "ffprobe could not read the web video" unless status.success?

      JSON.parse(output)["streams"]
    end
  end

  # The job run on `upload` attaches nothing, and the log has a line with `logged`.
  def assert_passed_over(upload, logged)
    mark = LOG.string.size
    ActiveStorage::Mediatool::WebVideoJob.perform_now(upload, :video, :web_video)
    refute upload.reload.web_video.attached?
    assert(log_lines_since(mark).any? { |line| line.include?(logged) }, log_lines_since(mark).join)
  end

  test "a portrait phone clip in HDR becomes an upright H.264 and AAC web video attached beside it" do
    upload = upload_of(fixture("probe/phone-hlg-portrait.mov"))
    ActiveStorage::Mediatool::WebVideoJob.perform_later(upload, :video, :web_video)
    upload.reload
    assert upload.web_video.attached?
    assert_equal "phone-hlg-portrait.web.mp4", upload.web_video.filename.to_s
    assert_equal "video/mp4", upload.web_video.content_type
    video, sound = streams(upload.web_video).partition { |stream| stream["codec_type"] == "video" }
    assert_equal [["h264", "High", "yuv420p", 64, 96]], video.map { |stream| stream.values_at("codec_name", "profile", "pix_fmt", "width", "height") }
    assert_nil video.first["side_data_list"], "no display matrix is left to honour"
    assert_equal ["aac"], sound.map { |stream| stream["codec_name"] }
    assert_equal [64, 96], upload.web_video.metadata.values_at("width", "height")
    assert upload.video.attached?, "the source stays attached"
  end

  test "a height given to the job through Active Job limits the web video" do
    upload = upload_of(fixture("probe/phone-hlg-portrait.mov"))
    ActiveStorage::Mediatool::WebVideoJob.perform_later(upload, :video, :web_video, height: 48)
    video = streams(upload.reload.web_video).find { |stream| stream["codec_type"] == "video" }
    assert_equal [32, 48], video.values_at("width", "height")
  end

  test "a video mediatool refuses gets no web video: the job is discarded and the log says why" do
    upload = upload_of(index_bomb)
    assert_passed_over(upload, "mediatool made no web video of Upload #{upload.id}'s video")
  end

  test "a video past web_video_deadline is discarded, not retried, and the log says so" do
    upload = upload_of(fixture("probe/phone-hlg-portrait.mov"))
    with_settings(web_video_deadline: 0.001) { assert_passed_over(upload, "took longer than its deadline") }
  end

  test "a record without the source attached is left as it is, and the log says so" do
    upload = Upload.create!
    assert_passed_over(upload, "Upload #{upload.id}'s video: nothing is attached as video")
  end

  test "a job enqueued where the README says, after create! returns, finds the video stored" do
    upload = File.open(fixture("video/sync.mov"), "rb") { |file| Upload.create!(video: { io: file, filename: "sync.mov" }) }
    ActiveStorage::Mediatool::WebVideoJob.perform_later(upload, :video, :web_video)
    assert upload.reload.web_video.attached?
  end
end
