# frozen_string_literal: true

require "active_job"

module ActiveStorage
  module Mediatool
    # Makes the web video of a record's attached video and attaches it to another of its
    # attachments, in the background:
    #
    #   class Upload < ApplicationRecord
    #     has_one_attached :video
    #     has_one_attached :web_video
    #   end
    #
    #   upload = Upload.create!(video: params[:video])
    #   ActiveStorage::Mediatool::WebVideoJob.perform_later(upload, :video, :web_video)
    #
    # Enqueued once `create!` has returned, when the video is stored: an `after_create_commit`
    # declared after `has_one_attached` runs before Rails 6.1 uploads the file (commit callbacks
    # run last declared first), and the job would find no file.
    #
    # The web video is `mediatool transcode`'s (H.264 and AAC in an MP4 every browser plays,
    # upright, SDR, `moov` first, at most `height` lines), named after the source (clip.mov gives
    # clip.web.mp4), its metadata the report's (width, height, duration, and the source's sound).
    #
    # A video mediatool refuses (damaged, over a limit, no video at all), or that takes longer than
    # `web_video_deadline`, would be refused again: the job is discarded and the log says why; the
    # source stays attached as it is. When mediatool gave no other answer (not found, ended) the
    # job raises Error, for the app's retries. A record or source gone meanwhile: nothing to do.
    class WebVideoJob < ActiveJob::Base
      queue_as { ActiveStorage.queues[:mediatool_web_video] || :default }

      discard_on ActiveRecord::RecordNotFound
      # A video past web_video_deadline would pass it again: an hour's work a retry, for nothing.
      discard_on ActiveStorage::FileNotFoundError, Refused, NotMedia, PastDeadline do |job, error|
        job.logger.warn "#{job.what_is_made}: #{error.message}"
      end

      def perform(record, source, target, height: 1080)
        attached = record.public_send(source)
        return logger.warn("#{what_is_made}: nothing is attached as #{source}") unless attached.attached?

        blob = attached.respond_to?(:blob) ? attached.blob : attached.first.blob
        tool = Mediatool.tool or raise Error, "there is no mediatool to make the web video with"
        file, report = Mediatool.with_local_path(blob) do |path|
          ActiveSupport::Notifications.instrument("web_video.active_storage", key: blob.key) { tool.web_video(path, height: height) }
        end
        begin
          record.public_send(target).attach(io: file, filename: "#{blob.filename.base}.web.mp4", content_type: "video/mp4",
                                            metadata: metadata(report))
        ensure
          file.close
        end
      end

      # "mediatool made no web video of Upload 7's video", for the log.
      def what_is_made
        record, source = arguments
        "mediatool made no web video of #{record.class.name} #{record.try(:id)}'s #{source}"
      end

      private
        # What the report says of the video made, as Active Storage's analyzer would name it.
        def metadata(report)
          { "width" => report["width"], "height" => report["height"], "duration" => report["seconds"],
            "video" => true, "audio" => !report["sound"].nil?, "analyzed" => true }.compact
        end
    end
  end
end
