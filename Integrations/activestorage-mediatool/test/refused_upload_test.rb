# frozen_string_literal: true

require_relative "test_helper"

# A file mediatool knows and refuses (here an MP4 index bomb, made by the test) is analysed as
# refused and never handed to Rails' ffprobe or ffmpeg, which have no limits; a file of no kind
# mediatool reads still is. Rails' tools are stand-ins that record being run.
class RefusedUploadTest < ActiveSupport::TestCase
  include BlobHelpers

  # mediatool's words: "the file's sample tables: its tracks claim 40000000 samples, more than the
  # file's 3528 bytes can hold: refused" (earlier builds: "a track claims").
  REFUSAL = /claims? 40000000 samples, more than the file's \d+ bytes can hold: refused\z/.freeze

  test "an MP4 index bomb is analysed as refused, and neither ffprobe nor ffmpeg is run for it" do
    [{ serve: true }, { serve: false }, { serve: true, digests: true }].each do |settings|
      with_settings(**settings) do
        with_recording_ffmpeg do |runs|
          mark = LOG.string.size
          blob = blob_of(index_bomb, filename: "bomb.mp4")
          assert blob.video?
          blob.analyze
          assert_equal [], runs.call, "Rails' own tools were run for the index bomb (#{settings.inspect})"
          metadata = blob.reload.metadata
          assert_equal true, metadata[:analyzed], settings.inspect
          assert_match REFUSAL, metadata[:mediatool_refused], settings.inspect
          refute metadata.key?(:width), metadata.inspect
          assert(log_lines_since(mark).any? { |line| line.include?("mediatool refused bomb.mp4 (#{blob.key})") }, LOG.string[mark..])

          # Its preview: refused as it was analysed; and a blob not analysed yet is refused too.
          error = assert_raises(ActiveStorage::PreviewError) { blob.preview(resize_to_limit: [64, 64]).processed }
          assert_match(/mediatool refused bomb\.mp4/, error.message)
          unanalysed = blob_of(index_bomb, filename: "bomb.mp4")
          error = assert_raises(ActiveStorage::PreviewError) { unanalysed.preview(resize_to_limit: [64, 64]).processed }
          assert_match(/samples, more than the file's \d+ bytes can hold: refused/, error.message)

          assert_equal [], runs.call, "Rails' own tools were run for the index bomb (#{settings.inspect})"
        end
      end
    end
  end

  test "a file of no kind mediatool reads is still handed to Rails' own analyzer" do
    with_recording_ffmpeg do |runs|
      blob = blob_of(fixture("video/not-media.mp4"))
      blob.analyze
      assert_equal true, blob.metadata[:analyzed]
      refute blob.metadata.key?(:mediatool_refused), blob.metadata.inspect
      # The stand-in ffprobe was asked: the record above is no record of nothing.
      assert_equal 1, runs.call.grep(/\Affprobe /).size, runs.call.inspect
    end
  end
end
