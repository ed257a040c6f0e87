# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # One run of a command, with a deadline: its status, standard output and standard error.
    module Command
      # More than any answer mediatool gives (a poster JPEG is a few MB): a run that writes more
      # is ended, so that what is held stays bounded.
      MOST_OUTPUT = 256 << 20

      def self.run(argv, timeout:)
        output_reader, output_writer = IO.pipe
        error_reader, error_writer = IO.pipe
        pid = Process.spawn(*argv, in: File::NULL, out: output_writer, err: error_writer)
        output_writer.close
        error_writer.close
        collected = { output_reader => +"".b, error_reader => +"".b }
        read_all(collected, deadline: now + timeout, what: argv[1])
        _, status = Process.wait2(pid)
        pid = nil
        [status, collected[output_reader], collected[error_reader]]
      ensure
        if pid
          Process.kill(:KILL, pid) rescue nil
          Process.wait(pid) rescue nil
        end
        [output_reader, output_writer, error_reader, error_writer].each { |io| io&.close unless io&.closed? }
      end

      def self.now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      def self.read_all(collected, deadline:, what:)
        open = collected.keys
        until open.empty?
          left = deadline - now
          raise Error, "mediatool #{what} took longer than its deadline and was stopped" if left <= 0

          ready, = IO.select(open, nil, nil, left)
          next unless ready

          ready.each do |io|
            chunk = io.read_nonblock(1 << 16, exception: false)
            next if chunk == :wait_readable

            if chunk.nil?
              open.delete(io)
            else
              collected[io] << chunk
              raise Error, "mediatool #{what} wrote more than #{MOST_OUTPUT} bytes" if collected[io].bytesize > MOST_OUTPUT
            end
          end
        end
      end
      private_class_method :read_all
    end
  end
end
