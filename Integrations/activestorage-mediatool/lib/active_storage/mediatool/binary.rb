# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Where mediatool is: `ActiveStorage.paths[:mediatool]` (as Rails finds ffprobe and ffmpeg),
    # else `mediatool` on PATH. A binary removed, moved or replaced after it was found is looked
    # for again: each call looks where it would be found (a few stat calls), and whatever is
    # there now, once it is seen to run, is what is used. What is found, or that none is, is said
    # in the log when it changes; when there is none, Rails' own analyzers and previewers do the
    # work.
    module Binary
      # What was last found for a setting: the file looked at, the file it was (`identity`), and
      # whether it runs (`path`, else nil). A file seen before is not run again to see that it runs.
      Found = Struct.new(:candidate, :identity, :path)

      @lock = Mutex.new
      @found = {}

      class << self
        # The mediatool to run, or nil.
        def path
          found.path
        end

        # What is found now (`Found`): its `path` (nil when none runs) and `identity`, which tells
        # a binary replaced at the same path (an upgrade) from the one it replaced.
        def found
          configured = ActiveStorage.paths[:mediatool] if ActiveStorage.respond_to?(:paths) && ActiveStorage.paths
          @lock.synchronize do
            candidate = configured ? configured.to_s : search_path("mediatool")
            identity = identity_of(candidate)
            found = @found[configured]
            unless found && found.candidate == candidate && found.identity == identity
              path = candidate if identity && runs?(candidate)
              say(configured, candidate, path, found)
              @found[configured] = found = Found.new(candidate, identity, path)
            end
            found
          end
        end

        # Looked for again at the next call (a test, or a binary that would not start).
        def forget
          @lock.synchronize { @found.clear }
        end

        private
          # The file at `candidate` as a file is told from another (device, inode, size, time
          # changed), or nil when there is no executable file there.
          def identity_of(candidate)
            return nil unless candidate

            stat = File.stat(candidate)
            return nil unless stat.file? && stat.executable?

            [stat.dev, stat.ino, stat.size, stat.mtime.to_r, stat.ctime.to_r]
          rescue SystemCallError
            nil
          end

          def say(configured, candidate, path, before)
            where = configured ? "at #{configured}" : "on PATH"
            if path
              ActiveStorage.logger&.info("activestorage-mediatool: mediatool found at #{path}") if before
            elsif candidate && identity_of(candidate)
              ActiveStorage.logger&.warn(
                "activestorage-mediatool: the mediatool #{where} does not run: Rails' own analyzers and previewers are used"
              )
            else
              ActiveStorage.logger&.warn(
                "activestorage-mediatool: no mediatool #{where}: Rails' own analyzers and previewers are used"
              )
            end
          end

          def search_path(name)
            ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).each do |folder|
              candidate = File.join(folder, name)
              return candidate if File.file?(candidate) && File.executable?(candidate)
            end
            nil
          end

          def runs?(candidate)
            status, = Command.run([candidate, "--version"], timeout: 30)
            status.success?
          rescue Error, SystemCallError
            false
          end
      end
    end
  end
end
