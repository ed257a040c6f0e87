# frozen_string_literal: true

require "tmpdir"
require "fileutils"
require "tempfile"

module ActiveStorage
  module Mediatool
    # What the analyzers and the previewer ask of mediatool, with the app's settings: a probe,
    # and a poster. Served by a process kept for each (`Server`), or by a run a blob when serving
    # is off or a path cannot be sent on a line.
    class Tool
      attr_reader :binary

      def initialize(binary:, settings:)
        @binary = binary
        @settings = settings
        @lock = Mutex.new
      end

      # mediatool probe's report of the file, a Hash; raises Error when it could not be read.
      def probe(path)
        arguments = ["probe", *@settings.arguments, *("--no-gps" unless @settings.gps)]
        report =
          if serves?(path)
            server(:probe) { Server.new([binary, *arguments, "--serve"], timeout: @settings.timeout) }.answer(path)
          else
            status, output, error = Command.run([binary, *arguments, "--json", "--quiet", "--", path], timeout: @settings.timeout + 30)
            raise Error, last_line(error) if output.empty? && !status.success?

            JSON.parse(output.lines.first)
          end
        raise Error, report["error"].to_s unless report["status"] == "ok"

        report
      end

      # A poster of the video (a frame worth showing, upright, tone mapped), as an open JPEG
      # file that is gone once closed.
      def poster(path)
        arguments = ["thumbnail", "--at", "auto", "--format", "jpeg", *@settings.arguments]
        if serves?(path)
          report = server(:thumbnail) do
            Server.new([binary, *arguments, "--serve", "--out-dir", posters_folder, "--name", "{stem}.jpg",
                        "--overwrite", "--no-fsync"], timeout: @settings.timeout)
          end.answer(path)
          raise Error, report["error"].to_s unless report["status"] == "ok"

          file = File.open(report.fetch("output"), "rb")
          File.unlink(file.path)
          file
        else
          status, output, error = Command.run([binary, *arguments, "--quiet", "-o", "-", "--", path], timeout: @settings.timeout + 30)
          raise Error, last_line(error) unless status.success? && !output.empty?

          file = Tempfile.new(["poster", ".jpg"], binmode: true)
          file.write(output)
          file.rewind
          file.unlink
          file
        end
      end

      def stop
        @lock.synchronize do
          @servers&.each_value(&:stop)
          @servers = nil
          FileUtils.remove_entry(@posters_folder, true) if @posters_folder && @posters_owner == Process.pid
          @posters_folder = nil
        end
      end

      private

        def serves?(path)
          @settings.serve && !path.include?("\n")
        end

        def server(kind)
          @lock.synchronize do
            @servers ||= {}
            @servers[kind] ||= yield
          end
        end

        # A folder of this process's own (a forked child makes its own).
        def posters_folder
          unless @posters_folder && @posters_owner == Process.pid
            @posters_folder = Dir.mktmpdir("activestorage-mediatool-")
            @posters_owner = Process.pid
          end
          @posters_folder
        end

        def last_line(error)
          line = error.to_s.force_encoding(Encoding::UTF_8).scrub.lines.last.to_s.strip
          line.empty? ? "mediatool failed" : line.delete_prefix("mediatool: ")
        end
    end
  end
end
